import { html, ApiView, Pill, DataTable } from '../components.js';

/** `/`: warehouse and companion status plus the platform health summary. */
export function Dashboard() {
  return html`<h1>Overview</h1>
    <${ApiView} path="/api/health/platform">${(h) => html`
      <div class="cards">
        <div class="card"><div class="label">Platform</div><div class="value"><${Pill} value=${h.status} /></div></div>
        <div class="card"><div class="label">Warehouse</div><div class="value">${h.database.size_mb} MB</div><div class="muted">${h.database.tables} tables · ${h.database.raw_tables} raw · ${h.database.staging_tables} staging · ${h.database.marts_tables} marts</div></div>
        <div class="card"><div class="label">Sources</div><div class="value">${h.enabled_sources} / ${h.total_sources}</div><div class="muted">enabled / total</div></div>
        <div class="card"><div class="label">Disk free</div><div class="value">${h.disk.free_gb} GB</div><div class="muted">of ${h.disk.total_gb} GB</div></div>
      </div>
      ${h.critical_issues.length ? html`<h3>Critical issues</h3><ul>${h.critical_issues.map((i) => html`<li class="error">${typeof i === 'string' ? i : JSON.stringify(i)}</li>`)}</ul>` : null}
      ${h.warnings.length ? html`<h3>Warnings</h3><ul>${h.warnings.map((i) => html`<li>${typeof i === 'string' ? i : JSON.stringify(i)}</li>`)}</ul>` : null}`}
    <//>
    <h2>Services</h2>
    <${ApiView} path="/api/status">${(s) => html`
      <div class="cards">
        <div class="card"><div class="label">Warehouse</div><div class="value"><${Pill} value=${s.warehouse.status} /></div>
          <div class="muted">${s.warehouse.serving_copy ? `serving copy ${s.warehouse.serving_copy.age_seconds}s old` : 'no serving copy yet'}</div></div>
        ${s.companions.map((c) => html`<div class="card"><div class="label">${c.name}</div><div class="value"><${Pill} value=${c.state} /></div><div class="muted">${c.detail ?? ''}</div></div>`)}
      </div>`}
    <//>`;
}
