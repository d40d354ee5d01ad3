// /health: services, warehouse, serving copy age, dbt, disk, stale checks, failures, for a person to read.
import { html, ApiView, Pill, DataTable, ago, fmt } from '@basin/ui/components.js';

const Card = ({ label, status, children }) => html`<div class="card"><div class="label">${label}</div><div class="value">${status !== undefined ? html`<${Pill} value=${status} />` : null}</div><div class="muted">${children}</div></div>`;

export default function Health() {
  return html`<h1>Health</h1>
    <${ApiView} path="/api/health/platform">${(h) => html`
      <p>Platform: <${Pill} value=${h.status} /> <span class="muted">checked ${ago(h.timestamp)}</span></p>
      ${h.critical_issues.length ? html`<div class="error-box" role="alert"><strong>Critical</strong><ul>${h.critical_issues.map((i) => html`<li>${typeof i === 'string' ? i : i.message ?? JSON.stringify(i)}</li>`)}</ul></div>` : null}
      ${h.warnings.length ? html`<div class="notice"><strong>Warnings</strong><ul>${h.warnings.map((i) => html`<li>${typeof i === 'string' ? i : i.message ?? JSON.stringify(i)}</li>`)}</ul></div>` : null}
      <div class="cards">
        <${Card} label="Warehouse" status=${h.database.status}>${fmt(h.database.size_mb)} MB · ${h.database.tables} tables<//>
        <${Card} label="Disk" status=${h.disk.status}>${fmt(h.disk.free_gb)} GB free of ${fmt(h.disk.total_gb)} GB<//>
        <${Card} label="Sources" status=${h.sync_failures.length ? 'failed' : 'ok'}>${h.enabled_sources} of ${h.total_sources} enabled · ${h.sync_failures.length} failing<//>
        <${Card} label="dbt" status=${h.tx_failures?.length ? 'failed' : 'ok'}>${h.tx_failures?.length ?? 0} failing models<//>
        ${h.scheduler ? html`<${Card} label="Scheduler" status="ok">${h.scheduler.schedules} schedules · ${h.scheduler.running_jobs} running<//>` : null}
        ${h.websocket ? html`<${Card} label="Live clients">${h.websocket.clients} connected<//>` : null}
        ${h.bi ? html`<${Card} label="Dashboards (bi)" status=${h.bi.state}>${h.bi.error ?? (h.bi.started_at ? `up since ${ago(h.bi.started_at)}` : '')}<//>` : null}
      </div>
      ${h.sync_failures.length ? html`<h2>Failing syncs</h2><${DataTable} rows=${h.sync_failures} columns=${[{ key: 'source', label: 'source', render: (r) => html`<a href=${`/sources?name=${encodeURIComponent(r.source)}`}>${r.source}</a>` }, 'error', { key: 'failed_at', label: 'when', render: (r) => ago(r.failed_at) }]} />` : null}
      ${h.tx_failures?.length ? html`<h2>Failing dbt models</h2><${DataTable} rows=${h.tx_failures} />` : null}
      ${h.monitor_errors?.length || h.monitors_config_error ? html`<h2>Monitors</h2><${DataTable} rows=${h.monitor_errors ?? []} empty=${h.monitors_config_error ?? ''} />` : null}
      ${h.governance?.pii_overrides_error ? html`<div class="error-box">pii-overrides.yml: ${h.governance.pii_overrides_error.message ?? JSON.stringify(h.governance.pii_overrides_error)}</div>` : null}`}
    <//>
    <h2>Services</h2>
    <${ApiView} path="/api/status">${(s) => html`<div class="cards">
      <${Card} label="Warehouse" status=${s.warehouse.status}>${s.warehouse.serving_copy ? `serving copy published ${ago(s.warehouse.serving_copy.published_at)} (${s.warehouse.serving_copy.age_seconds} s old)` : 'no serving copy yet: it appears after the first load'}<//>
      ${s.companions.map((c) => html`<${Card} label=${c.name} status=${c.state}>${c.detail ?? c.version ?? ''} ${c.url ? html`<a href=${c.url}>open</a>` : null}<//>`)}
    </div><p class="muted">Basin ${s.version}</p>`}<//>`;
}
