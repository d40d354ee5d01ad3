import { html, ApiView, DataTable, Pill, fmt } from '../components.js';
import { api } from '../api.js';

/** Pages that show one API list each. They stay useful while feature pages grow richer. */

export function Sources() {
  const sync = (name, reload) => api(`/api/sources/${encodeURIComponent(name)}/sync`, { method: 'POST', body: {} }).then(reload, (e) => alert(e.message));
  return html`<h1>Sources</h1>
    <${ApiView} path="/api/sources">${(rows, reload) => html`<${DataTable} rows=${rows} empty="No sources yet: add one with “basin source add” or in .basin/sources.yml." columns=${[
      'name', 'type', { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status} />` }, 'row_count', 'last_sync',
      { key: 'fresh', label: 'days old', render: (r) => fmt(r.freshness?.days_old) },
      { key: 'act', label: '', render: (r) => html`<button class="secondary" onClick=${() => sync(r.name, reload)}>Sync</button>` },
    ]} />`}<//>`;
}

export function Models() {
  return html`<h1>Models</h1>
    <${ApiView} path="/api/tx/models">${(data) => {
      const rows = Array.isArray(data) ? data : data.models ?? [];
      return html`<${DataTable} rows=${rows} empty="No dbt models yet." columns=${['name', 'layer', 'materialization', { key: 'status', label: 'last run', render: (r) => html`<${Pill} value=${r.status ?? r.last_run?.status} />` }]} />`;
    }}<//>`;
}

export function Health() {
  return html`<h1>Health</h1><${ApiView} path="/api/health/platform">${(h) => html`<pre>${JSON.stringify(h, null, 2)}</pre>`}<//>`;
}

export function Logs() {
  return html`<h1>Logs</h1><${ApiView} path="/api/logs?limit=200">${(d) => html`<${DataTable} rows=${d.items ?? d} />`}<//>`;
}

export function Catalog() {
  return html`<h1>Catalog</h1><${ApiView} path="/api/catalog/models">${(d) => html`<${DataTable} rows=${Array.isArray(d) ? d : d.items ?? d.models ?? []} columns=${['name', 'type', 'layer', 'description']} />`}<//>`;
}

export function Schedules() {
  return html`<h1>Schedules</h1><${ApiView} path="/api/schedules">${(d) => html`<${DataTable} rows=${Array.isArray(d) ? d : d.items ?? []} columns=${['name', 'type', 'cron', 'enabled', 'next_run', 'last_run']} />`}<//>`;
}

export function Notebooks() {
  return html`<h1>Notebooks</h1><${ApiView} path="/api/notebooks">${(d) => html`<${DataTable} rows=${d} />`}<//>`;
}

export function Users() {
  return html`<h1>Users</h1><${ApiView} path="/api/admin/users">${(d) => html`<${DataTable} rows=${Array.isArray(d) ? d : d.items ?? []} columns=${['email', 'role', 'status', 'last_login']} />`}<//>`;
}

export function Account() {
  return html`<h1>Account</h1>
    <h2>Sessions</h2><${ApiView} path="/api/auth/sessions">${(d) => html`<${DataTable} rows=${Array.isArray(d) ? d : d.items ?? []} />`}<//>
    <h2>API keys</h2><${ApiView} path="/api/auth/api-keys">${(d) => html`<${DataTable} rows=${Array.isArray(d) ? d : d.items ?? []} />`}<//>`;
}

export function Secrets() {
  return html`<h1>Secrets</h1><${ApiView} path="/api/secrets">${(d) => html`<pre>${JSON.stringify(d, null, 2)}</pre>`}<//>`;
}
