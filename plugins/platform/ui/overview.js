// /: platform health, warehouse size, source freshness, recent syncs and dbt runs, everything that
// needs attention (with links), and rows loaded per day over 30 days.
import { useEffect, useState } from 'preact/hooks';
import { html, api, Pill, Chart, DataTable, ErrorBox, ago, fmt, useSession, useLiveEvent } from '@basin/ui/components.js';

/** loads several API paths at once; a path the role may not read (or a feature not installed) is just absent */
function useAll(paths, deps = []) {
  const [state, setState] = useState({});
  // each part shows as soon as its answer arrives: a slow health check does not hold back the rest
  const load = () => {
    for (const [k, p] of Object.entries(paths)) if (p) api(p).then((v) => setState((s) => ({ ...s, [k]: v, [`${k}Error`]: null })), (e) => setState((s) => ({ ...s, [`${k}Error`]: e })));
  };
  useEffect(() => void load(), deps);
  return [state, load];
}

function attentionItems(d) {
  const out = [];
  for (const f of d.health?.sync_failures ?? []) out.push({ kind: 'failed', text: `Last sync of ${f.source} failed: ${f.error ?? ''}`, href: `/sources?name=${encodeURIComponent(f.source)}&tab=history` });
  for (const f of d.health?.tx_failures ?? []) out.push({ kind: 'failed', text: `dbt: ${f.model ?? f.name ?? 'a model'} failed${f.error ? `: ${f.error}` : ''}`, href: '/models' });
  for (const a of d.attention ?? []) {
    if (a.schema_drift?.flagged) out.push({ kind: 'attention', text: `Schema drift in ${a.source}: ${a.schema_drift.pending_changes} change(s) wait for a decision`, href: `/sources?name=${encodeURIComponent(a.source)}&tab=schema` });
    if (a.pii?.columns) out.push({ kind: 'warning', text: `PII in ${a.source}: ${a.pii.columns} column(s) (${(a.pii.entity_types ?? []).join(', ')})`, href: `/sources?name=${encodeURIComponent(a.source)}&tab=pii` });
  }
  for (const m of d.monitoring?.monitors ?? []) if (m.latest && m.latest.status !== 'ok') out.push({ kind: m.latest.status === 'error' ? 'failed' : 'warning', text: `Monitor ${m.name}: ${m.latest.error ?? `${m.latest.change_pct}% ${m.compare?.replace(/_/g, ' ')}`}`, href: '/health' });
  for (const s of d.sources ?? []) if (s.enabled && s.freshness?.days_old >= 2) out.push({ kind: 'stale', text: `${s.name} is stale: last loaded ${s.freshness.days_old} days ago`, href: `/sources?name=${encodeURIComponent(s.name)}` });
  for (const c of d.health?.critical_issues ?? []) out.push({ kind: 'critical', text: typeof c === 'string' ? c : c.message ?? JSON.stringify(c), href: '/health' });
  for (const w of d.health?.warnings ?? []) out.push({ kind: 'warning', text: typeof w === 'string' ? w : w.message ?? JSON.stringify(w), href: '/health' });
  return out;
}

export default function Overview() {
  const { can } = useSession();
  const [d, reload] = useAll({
    health: '/api/health/platform',
    status: '/api/status',
    sources: '/api/sources',
    recent: can('source.view') ? '/api/sync/recent?limit=8' : null,
    daily: can('source.view') ? '/api/sync/daily?days=30' : null,
    runs: can('tx.view') ? '/api/tx/runs?limit=5' : null,
    attention: can('governance.view') ? '/api/governance/attention' : null,
    monitoring: can('governance.view') ? '/api/monitoring' : null,
  });
  useLiveEvent(['sync_completed', 'sync_failed', 'tx_run_completed', 'schema_drift_detected'], () => reload());
  const h = d.health;
  const items = attentionItems(d);
  const days = d.daily?.days ?? [];
  const totalRows = (d.sources ?? []).reduce((n, s) => n + (s.row_count ?? 0), 0);
  return html`<h1>Overview</h1>
    <${ErrorBox} error=${d.healthError} />
    ${!h && !d.healthError ? html`<p class="muted" aria-busy="true">Checking platform health…</p>` : null}
    ${h ? html`<div class="cards">
      <div class="card"><div class="label">Platform</div><div class="value"><${Pill} value=${h.status} /></div><div class="muted"><a href="/health">Health details</a></div></div>
      <div class="card"><div class="label">Warehouse</div><div class="value">${fmt(h.database.size_mb)} MB</div><div class="muted">${h.database.tables} tables · ${h.database.raw_tables} raw · ${h.database.staging_tables} staging · ${h.database.marts_tables} marts</div></div>
      <div class="card"><div class="label">Sources</div><div class="value">${h.enabled_sources} / ${h.total_sources}</div><div class="muted">enabled / total · ${fmt(totalRows)} rows</div></div>
      <div class="card"><div class="label">Serving copy</div><div class="value">${d.status?.warehouse?.serving_copy ? ago(d.status.warehouse.serving_copy.published_at) : '—'}</div><div class="muted">what dashboards and queries read</div></div>
    </div>` : null}
    <h2>Needs attention</h2>
    ${items.length
      ? html`<ul class="attention">${items.map((i) => html`<li><${Pill} value=${i.kind} /> <a href=${i.href} title=${i.text}>${i.text.length > 180 ? `${i.text.slice(0, 180)}…` : i.text}</a></li>`)}</ul>`
      : html`<p class="muted">Nothing needs attention.</p>`}
    ${d.daily ? html`<h2>Rows loaded per day (30 days)</h2>
      <${Chart} title="rows loaded per day" bars=${true} height=${180} x=${days.map((r) => Date.parse(`${r.day}T00:00:00Z`) / 1000)} series=${[{ label: 'rows', values: days.map((r) => r.rows) }]} />` : null}
    <div class="grid2">
      <div><h2>Source freshness</h2>
        <${DataTable} rows=${d.sources ?? []} empty=${d.sources ? 'No sources yet.' : 'Loading…'} columns=${[
          { key: 'name', label: 'source', render: (s) => html`<a href=${`/sources?name=${encodeURIComponent(s.name)}`}>${s.name}</a>` },
          { key: 'status', label: 'status', render: (s) => html`<${Pill} value=${s.enabled ? s.status : 'disabled'} />` },
          { key: 'fresh', label: 'last loaded', render: (s) => ago(s.freshness?.last_update) },
        ]} /></div>
      <div><h2>Recent syncs</h2>
        ${d.recent ? html`<${DataTable} rows=${d.recent.items} empty="No syncs yet." columns=${[
          { key: 'source', label: 'source', render: (r) => html`<a href=${`/sources?name=${encodeURIComponent(r.source)}&tab=history`}>${r.source}</a>` },
          { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status} />` }, { key: 'rows', label: 'rows', render: (r) => fmt(r.rows) }, { key: 'started_at', label: 'when', render: (r) => ago(r.started_at) },
        ]} />` : html`<p class="muted">${can('source.view') ? 'Loading…' : 'Your role cannot see syncs.'}</p>`}</div>
    </div>
    ${d.runs ? html`<h2>Recent dbt runs</h2><${DataTable} rows=${(d.runs.items ?? []).slice(0, 5)} empty="No dbt runs yet." columns=${[
      { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status} />` }, 'command', 'trigger',
      { key: 'models', label: 'models', render: (r) => `${(r.models ?? []).filter((m) => m.status === 'success' || m.status === 'pass').length} / ${(r.models ?? []).length} ok` },
      { key: 'started_at', label: 'when', render: (r) => ago(r.started_at ?? r.queued_at) },
    ]} /><p><a href="/models">All models</a></p>` : null}
    <h2>Services</h2>
    ${d.status ? html`<div class="cards">
      <div class="card"><div class="label">Warehouse</div><div class="value"><${Pill} value=${d.status.warehouse.status} /></div></div>
      ${d.status.companions.map((c) => html`<div class="card"><div class="label">${c.name}</div><div class="value"><${Pill} value=${c.state} /></div><div class="muted">${c.detail ?? c.version ?? ''}</div></div>`)}
    </div>` : null}`;
}
