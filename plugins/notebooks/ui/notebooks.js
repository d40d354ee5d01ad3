// /notebooks: marimo notebooks with their lock status; create from a template, open (takes the lock),
// copy, delete, and force release for notebooks.manage.
import { html, api, useApi, DataTable, Pill, ErrorBox, ago, bytes, useSession, useAction } from '@basin/ui/components.js';

const enc = encodeURIComponent;
const TEMPLATES = [['blank', 'Blank'], ['explore', 'Explore a table'], ['quality', 'Data quality checks']];

export default function Notebooks() {
  const { can, user } = useSession();
  const { data, error, reload } = useApi('/api/notebooks');
  const [act, busy, actError] = useAction(async (fn) => (await fn(), reload()));
  const [open, opening, openError] = useAction(async (nb) => {
    await api(`/api/notebooks/${enc(nb.name)}/lock`, { method: 'POST' });
    location.assign(nb.url);
  });
  const create = (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(e.target));
    act(() => api('/api/notebooks', { method: 'POST', body: { name: f.name, template: f.template } })).then(() => e.target.reset());
  };
  if (error?.status === 404)
    return html`<h1>Notebooks</h1><div class="notice"><strong>Notebooks are not installed on this server.</strong> They need the marimo virtualenv: run <code>node scripts/setup.mjs marimo</code> on the server, then restart Basin.</div>`;
  const mine = (nb) => nb.lock && (!user || nb.lock.user_id === user.id);
  return html`<h1>Notebooks</h1>
    ${can('notebooks.execute') ? html`<form class="row" onSubmit=${create} aria-label="Create a notebook">
      <label>Name <input name="name" required pattern="[A-Za-z0-9][A-Za-z0-9_\\-]{0,63}" placeholder="revenue_questions" /></label>
      <label>Template <select name="template">${TEMPLATES.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></label>
      <button disabled=${busy}>Create</button>
    </form>` : null}
    <${ErrorBox} error=${error ?? actError ?? openError} />
    <${DataTable} rows=${data ?? []} empty="No notebooks yet." columns=${[
      { key: 'name', label: 'notebook', render: (nb) => html`${nb.name}<div class="muted">${nb.file}</div>` },
      { key: 'lock', label: 'lock', render: (nb) => (nb.lock ? html`<${Pill} value="locked" label=${mine(nb) ? 'open by you' : `in use by ${nb.lock.user_email ?? nb.lock.email ?? nb.lock.user_id}`} /> <span class="muted">until ${ago(nb.lock.expires_at)}</span>` : html`<${Pill} value="ok" label="free" />`) },
      { key: 'modified_at', label: 'modified', render: (nb) => ago(nb.modified_at) },
      { key: 'size_bytes', label: 'size', render: (nb) => bytes(nb.size_bytes) },
      {
        key: 'act', label: 'actions',
        render: (nb) => html`<div class="row">
          ${can('notebooks.execute') && (!nb.lock || mine(nb)) ? html`<button class="small" disabled=${opening} onClick=${() => open(nb)}>Open</button>` : null}
          ${can('notebooks.execute') ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/notebooks/${enc(nb.name)}/copy`, { method: 'POST', body: {} }))}>Copy</button>` : null}
          ${mine(nb) ? html`<button class="secondary small" onClick=${() => act(() => api(`/api/notebooks/${enc(nb.name)}/release`, { method: 'POST' }))}>Release</button>` : null}
          ${nb.lock && !mine(nb) && can('notebooks.manage') ? html`<button class="secondary small" onClick=${() => confirm(`Force-release ${nb.name}? The other user's unsaved work in it may be lost.`) && act(() => api(`/api/notebooks/${enc(nb.name)}/lock`, { method: 'DELETE' }))}>Force release</button>` : null}
          ${can('notebooks.execute') && !nb.lock ? html`<button class="secondary small" onClick=${() => confirm(`Delete ${nb.name}?`) && act(() => api(`/api/notebooks/${enc(nb.name)}`, { method: 'DELETE' }))}>Delete</button>` : null}
        </div>`,
      },
    ]} />`;
}
