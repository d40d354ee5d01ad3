// /sources: the list of sources, the add-source wizard, and one source's page (?name=...).
import { useState } from 'preact/hooks';
import { html, api, ApiView, DataTable, Pill, ago, fmt, useSession, useApi, useQueryState, ErrorBox, useAction } from '@basin/ui/components.js';
import { AddSourceWizard } from './source-wizard.js';
import { SourcePage } from './source-page.js';

function SourceList() {
  const { can } = useSession();
  const [adding, setAdding] = useState(false);
  const list = useApi('/api/sources');
  const [act, , actError] = useAction(async (fn) => {
    await fn();
    list.reload();
  });
  const toggle = (s) => act(() => api(`/api/sources/${s.name}`, { method: 'PATCH', body: { enabled: !s.enabled } }));
  const remove = (s) => confirm(`Remove source "${s.name}" from sources.yml? Its loaded tables stay in the warehouse.`) && act(() => api(`/api/sources/${s.name}`, { method: 'DELETE' }));
  const sync = (s) => act(() => api(`/api/sources/${s.name}/sync`, { method: 'POST', body: {} }).then(() => location.assign(`/sources?name=${s.name}`)));
  return html`<div class="page-head"><h1>Sources</h1>
      <div class="actions">${can('source.manage') ? html`<button onClick=${() => setAdding(true)}>Add source</button>` : null}</div></div>
    ${adding ? html`<${AddSourceWizard} onClose=${() => setAdding(false)} onAdded=${(n) => location.assign(`/sources?name=${encodeURIComponent(n)}`)} />` : null}
    <${ErrorBox} error=${actError ?? list.error} />
    ${list.data
      ? html`<${DataTable} rows=${list.data} empty="No sources yet. Add one with the button above (or “basin source add”)." columns=${[
          { key: 'name', label: 'source', render: (r) => html`<a href=${`/sources?name=${encodeURIComponent(r.name)}`}>${r.name}</a><div class="muted">${r.type}</div>` },
          { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.enabled ? r.status : 'disabled'} />${r.needs_attention ? html` <${Pill} value="attention" label="needs attention" />` : null}` },
          { key: 'row_count', label: 'rows', render: (r) => fmt(r.row_count) },
          { key: 'fresh', label: 'freshness', render: (r) => (r.freshness?.last_update ? html`<span title=${r.freshness.last_update}>${ago(r.freshness.last_update)}</span>` : 'never synced') },
          { key: 'schedule', label: 'schedule', render: (r) => (r.schedule ? html`<span>${r.schedule.name ?? ''} <code>${r.schedule.cron ?? ''}</code></span>` : html`<span class="muted">none</span>`) },
          {
            key: 'act',
            label: 'actions',
            render: (r) => html`<div class="row">
              ${can('source.sync') && r.enabled ? html`<button class="secondary small" onClick=${() => sync(r)} aria-label=${`Sync ${r.name}`}>Sync</button>` : null}
              ${can('source.manage') ? html`<button class="secondary small" onClick=${() => toggle(r)}>${r.enabled ? 'Disable' : 'Enable'}</button>
                <button class="secondary small" onClick=${() => remove(r)} aria-label=${`Remove ${r.name}`}>Remove</button>` : null}
            </div>`,
          },
        ]} />`
      : list.loading ? html`<p class="muted">Loading…</p>` : null}`;
}

export default function Sources() {
  const [q] = useQueryState();
  return q.name ? html`<${SourcePage} name=${q.name} />` : html`<${SourceList} />`;
}
