// /settings/secrets (admin): environment variables with masked values, add and remove, OAuth connection status.
import { html, api, useApi, DataTable, Pill, ErrorBox, useAction, ago } from '@basin/ui/components.js';

const rowsOf = (d) => (Array.isArray(d) ? d : d?.variables ?? d?.items ?? d?.env ?? []);

export default function Secrets() {
  const list = useApi('/api/secrets');
  const oauth = useApi('/api/secrets/oauth');
  const [add, busy, addError] = useAction(async (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    await api('/api/secrets', { method: 'POST', body: { key: f.key.trim(), value: f.value } });
    e.target.reset();
    list.reload();
  });
  const [remove, , removeError] = useAction(async (key) => confirm(`Remove ${key}? Sources that name it stop working until it is set again.`) && (await api(`/api/secrets/${encodeURIComponent(key)}`, { method: 'DELETE' }), list.reload()));
  const [disconnect, , disconnectError] = useAction(async (t) => (await api(`/api/secrets/oauth/${encodeURIComponent(t)}`, { method: 'DELETE' }), oauth.reload()));
  if (list.error?.status === 404)
    return html`<h1>Secrets</h1><div class="notice"><strong>The secrets feature is not installed on this server.</strong>
      <p>Secrets are read from the project's <code>.env</code> file and the server's environment: add <code>NAME=value</code> lines to <code>.env</code> and name the variable in a source's <code>*_env</code> field. To manage them here, install the secrets plugin (it serves <code>/api/secrets</code>) and restart Basin.</p></div>`;
  return html`<h1>Secrets</h1>
    <p class="muted">Values are stored in the project's .env and never shown again; sources refer to them by name in their <code>*_env</code> fields.</p>
    <form class="row" onSubmit=${add} aria-label="Add or update a secret">
      <label>Name <input name="key" required pattern="[A-Za-z_][A-Za-z0-9_]*" placeholder="SHOP_API_TOKEN" /></label>
      <label>Value <input name="value" type="password" required autocomplete="off" /></label>
      <button disabled=${busy}>Save</button>
    </form>
    <${ErrorBox} error=${list.error ?? addError ?? removeError} />
    <${DataTable} rows=${rowsOf(list.data)} empty="No secrets yet." columns=${[
      { key: 'key', label: 'name', render: (r) => html`<code>${r.key ?? r.name}</code>` },
      { key: 'value', label: 'value', render: (r) => html`<code>${r.masked ?? r.value ?? '********'}</code>` },
      { key: 'used_by', label: 'used by', render: (r) => (r.used_by ?? []).join(', ') },
      { key: 'act', label: '', render: (r) => html`<button class="secondary small" onClick=${() => remove(r.key ?? r.name)} aria-label=${`Remove ${r.key ?? r.name}`}>Remove</button>` },
    ]} />
    <h2>OAuth connections</h2>
    <${ErrorBox} error=${(oauth.error?.status !== 404 && oauth.error) || disconnectError} />
    <${DataTable} rows=${rowsOf(oauth.data)} empty="No OAuth connections." columns=${[
      { key: 'source_type', label: 'provider', render: (r) => r.source_type ?? r.provider },
      { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status ?? (r.connected ? 'ok' : 'not_synced')} label=${r.status ?? (r.connected ? 'connected' : 'not connected')} />` },
      { key: 'expires_at', label: 'expires', render: (r) => ago(r.expires_at) },
      { key: 'act', label: '', render: (r) => (r.connected || r.status === 'connected' ? html`<button class="secondary small" onClick=${() => disconnect(r.source_type ?? r.provider)}>Disconnect</button>` : '') },
    ]} />`;
}
