// One source: tables, sync history with a chart, logs, schema changes with drift accept, PII with
// override, files with upload and delete, and the Sync button with live progress from /ws.
import { useState, useRef } from 'preact/hooks';
import { html, api, upload, useApi, DataTable, Pill, Tabs, Chart, Progress, ErrorBox, ago, fmt, bytes, useSession, useLiveEvent, useQueryState, useAction } from '@basin/ui/components.js';

const enc = encodeURIComponent;

/** the Sync button and, while a sync runs, its live progress (rows, rows/s, per resource) and Cancel */
function SyncControl({ source, onDone }) {
  const { can } = useSession();
  const [run, setRun] = useState(null);
  const [start, busy, error] = useAction(async () => {
    const r = await api(`/api/sources/${enc(source.name)}/sync`, { method: 'POST', body: {} });
    setRun({ id: r.id, rows: 0, rate: 0, resources: {}, state: 'running' });
  });
  const [cancel, , cancelError] = useAction(() => api(`/api/sync/${enc(run.id)}/cancel`, { method: 'POST' }));
  useLiveEvent(['sync_started', 'sync_progress', 'sync_completed', 'sync_failed'], (ev) => {
    if (ev.source !== source.name) return;
    if (ev.type === 'sync_started') setRun((r) => (r?.id === ev.sync_id ? r : { id: ev.sync_id, rows: 0, rate: 0, resources: {}, state: 'running' }));
    if (ev.type === 'sync_progress')
      setRun((r) => ({ ...(r ?? { id: ev.sync_id, resources: {} }), state: 'running', rows: ev.rows, rate: ev.rows_per_second, resources: { ...(r?.resources ?? {}), [ev.resource]: ev.resource_rows } }));
    if (ev.type === 'sync_completed') {
      setRun((r) => ({ ...(r ?? { resources: {} }), id: ev.sync_id, state: 'succeeded', rows: ev.rows, rate: ev.duration_seconds ? Math.round(ev.rows / ev.duration_seconds) : r?.rate ?? 0, resources: Object.fromEntries((ev.tables ?? []).map((t) => [t.name ?? t.table, t.rows ?? t.row_count])) }));
      onDone();
    }
    if (ev.type === 'sync_failed') {
      setRun((r) => ({ ...(r ?? { resources: {}, rows: 0 }), state: ev.error?.includes('cancel') ? 'cancelled' : 'failed', error: ev.error }));
      onDone();
    }
  });
  const running = run?.state === 'running';
  return html`<div class="sync-control">
    <div class="row">
      ${can('source.sync') && source.enabled ? html`<button onClick=${start} disabled=${busy || running}>${running ? 'Syncing…' : 'Sync now'}</button>` : null}
      ${running && can('source.sync') ? html`<button class="secondary" onClick=${cancel}>Cancel</button>` : null}
    </div>
    <${ErrorBox} error=${error ?? cancelError} />
    ${run
      ? html`<div class="card sync-progress" aria-live="polite">
        <div class="row"><${Pill} value=${run.state} /> <strong class="sync-rows">${fmt(run.rows)} rows</strong> <span class="muted">${fmt(run.rate)} rows/s</span></div>
        <${Progress} value=${running ? null : 1} label="sync progress" />
        ${Object.keys(run.resources).length ? html`<ul class="muted">${Object.entries(run.resources).map(([k, v]) => html`<li>${k}: ${fmt(v)} rows</li>`)}</ul>` : null}
        ${run.error ? html`<div class="error">${run.error}</div>` : null}
      </div>`
      : null}
  </div>`;
}

function Tables({ detail }) {
  return detail.tables_detail.length
    ? detail.tables_detail.map(
        (t) => html`<details class="card" open=${detail.tables_detail.length < 4}>
          <summary><strong>${t.schema}.${t.name}</strong> · ${fmt(t.row_count)} rows · updated ${ago(t.updated_at)}</summary>
          <p><a href=${`/catalog?model=${enc(`${detail.name}.${t.name}`)}&tab=columns`}>Open in the catalog</a></p>
          <${DataTable} rows=${(t.columns ?? []).map((c) => (typeof c === 'string' ? { name: c } : c))} columns=${['name', 'type']} />
        </details>`,
      )
    : html`<p class="muted">No tables yet: sync the source to load them.</p>`;
}

function History({ detail }) {
  const items = [...detail.sync_history.items].reverse();
  return html`${items.length > 1
      ? html`<${Chart} title="rows per sync" bars=${true} x=${items.map((s) => Math.floor(new Date(s.started_at).getTime() / 1000))} series=${[{ label: 'rows', values: items.map((s) => s.rows) }]} height=${160} />`
      : null}
    <${DataTable} rows=${detail.sync_history.items} empty="No syncs yet." columns=${[
      { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status} />` },
      { key: 'started_at', label: 'started', render: (r) => html`<span title=${r.started_at}>${ago(r.started_at)}</span>` },
      { key: 'rows', label: 'rows', render: (r) => fmt(r.rows) },
      'trigger',
      { key: 'error', label: 'error', render: (r) => (r.error ? html`<span class="error">${r.error}</span>` : '') },
    ]} />
    <p class="muted">${detail.sync_history.total} syncs in total.</p>`;
}

function Logs({ name }) {
  const [offset, setOffset] = useState(0);
  const { data, error } = useApi(`/api/sources/${enc(name)}/logs?limit=50&offset=${offset}`);
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!data) return html`<p class="muted">Loading…</p>`;
  return html`<${DataTable} rows=${data.items} empty="No log lines yet." columns=${[{ key: 'at', label: 'time', render: (r) => html`<span title=${r.at}>${ago(r.at)}</span>` }, { key: 'level', label: 'level', render: (r) => html`<${Pill} value=${r.level} />` }, 'message']} />
    <div class="row"><button class="secondary small" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - 50))}>Newer</button>
    <span class="muted">${data.total ? `${offset + 1}–${Math.min(offset + 50, data.total)} of ${data.total}` : ''}</span>
    <button class="secondary small" disabled=${offset + 50 >= data.total} onClick=${() => setOffset(offset + 50)}>Older</button></div>`;
}

function SchemaChanges({ detail, reload }) {
  const { can } = useSession();
  const drift = useApi(can('governance.view') ? `/api/governance/schema-drift?source=${enc(detail.name)}&limit=50` : null);
  const [accept, busy, error] = useAction(async () => {
    await api(`/api/governance/drift/${enc(detail.name)}/accept`, { method: 'POST' });
    drift.reload();
    reload();
  });
  const pending = (drift.data?.items ?? []).filter((e) => e.status === 'pending');
  return html`${drift.data?.attention_sources?.includes(detail.name) || pending.length
      ? html`<div class="notice" role="status"><strong>Schema drift needs a decision.</strong> ${pending.length} change(s) are pending; models that read this source may be paused until you accept the new schema.
        ${can('governance.manage') ? html` <button onClick=${accept} disabled=${busy}>Accept the current schema</button>` : html` <span class="muted">An editor or admin can accept it.</span>`}</div>`
      : html`<p class="muted">No pending schema drift.</p>`}
    <${ErrorBox} error=${error ?? drift.error} />
    <h3>Drift events</h3>
    <${DataTable} rows=${drift.data?.items ?? []} empty="No drift events." columns=${[
      'table', { key: 'change_type', label: 'change', render: (r) => html`${r.change_type}${r.breaking ? html` <${Pill} value="breaking" />` : ''}` }, 'column',
      { key: 'types', label: 'type', render: (r) => `${r.old_type ?? ''}${r.old_type && r.new_type ? ' → ' : ''}${r.new_type ?? ''}` },
      { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status} />` }, { key: 'detected_at', label: 'detected', render: (r) => ago(r.detected_at) },
    ]} />
    <h3>Schema history</h3>
    <${DataTable} rows=${detail.schema_changes.flatMap((g) => g.changes.map((c) => ({ ...c, table: g.table, at: g.at })))} empty="No schema changes recorded." columns=${['table', 'change', 'column', 'from', 'to', { key: 'at', label: 'when', render: (r) => ago(r.at) }]} />`;
}

function Pii({ name }) {
  const { can } = useSession();
  const [all, setAll] = useState(false);
  const { data, error, reload } = useApi(`/api/governance/pii?source=${enc(name)}&include_dismissed=${all}`);
  const [override, , overrideError] = useAction(async (f, status) => {
    await api('/api/governance/pii/overrides', { method: 'POST', body: { source: f.source, table: f.table, column: f.column, status, reason: `set in the UI` } });
    reload();
  });
  if (error) return html`<${ErrorBox} error=${error} />`;
  return html`<label class="inline"><input type="checkbox" checked=${all} onChange=${(e) => setAll(e.target.checked)} /> Show dismissed findings</label>
    <${ErrorBox} error=${overrideError} />
    <${DataTable} rows=${data ?? []} empty="No PII found in this source." columns=${[
      'table', 'column', { key: 'entity_type', label: 'kind' }, { key: 'confidence', label: 'confidence', render: (r) => `${Math.round(r.confidence * 100)}%` },
      { key: 'masked_examples', label: 'examples (masked)', render: (r) => (r.masked_examples ?? []).slice(0, 3).join(', ') },
      { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status} />` },
      {
        key: 'act', label: 'override',
        render: (r) => (can('governance.manage')
          ? html`<div class="row">${r.status !== 'not_pii' ? html`<button class="secondary small" onClick=${() => override(r, 'not_pii')} aria-label=${`Mark ${r.table}.${r.column} not PII`}>Not PII</button>` : null}
              ${r.status !== 'confirmed' ? html`<button class="secondary small" onClick=${() => override(r, 'pii')} aria-label=${`Confirm ${r.table}.${r.column} is PII`}>Confirm PII</button>` : null}</div>`
          : ''),
      },
    ]} />`;
}

function Files({ detail, reload }) {
  const { can } = useSession();
  const files = useApi(`/api/sources/${enc(detail.name)}/csv-files`);
  const [over, setOver] = useState(false);
  const [progress, setProgress] = useState(null);
  const [message, setMessage] = useState(null);
  const input = useRef(null);
  const [send, , sendError] = useAction(async (list) => {
    for (const f of list) {
      setProgress({ name: f.name, value: 0 });
      await upload(`/api/sources/${enc(detail.name)}/upload-csv`, f, (v) => setProgress({ name: f.name, value: v }));
      setMessage(`${f.name} uploaded. Sync the source to load it.`);
    }
    setProgress(null);
    files.reload();
    reload();
  });
  const [remove, , removeError] = useAction(async (f) => {
    if (!confirm(`Delete ${f.name} from the source's folder?`)) return;
    await api(`/api/sources/${enc(detail.name)}/csv-files?file_path=${enc(f.path)}`, { method: 'DELETE' });
    files.reload();
  });
  if (!detail.sync_mode.directory) return html`<p class="muted">This source does not read files from a folder.</p>`;
  return html`${can('csv.upload')
      ? html`<div class=${over ? 'dropzone over' : 'dropzone'} onDragOver=${(e) => (e.preventDefault(), setOver(true))} onDragLeave=${() => setOver(false)}
          onDrop=${(e) => (e.preventDefault(), setOver(false), send([...e.dataTransfer.files]))}>
          <p>Drop CSV, JSON, JSONL or Parquet files here, or <button class="secondary small" onClick=${() => input.current.click()}>choose files</button></p>
          <input ref=${input} type="file" multiple hidden aria-label="Files to upload" onChange=${(e) => send([...e.target.files])} />
          ${progress ? html`<div>${progress.name}</div><${Progress} value=${progress.value} label="upload progress" />` : null}
        </div>`
      : null}
    ${message ? html`<div class="success" role="status">${message}</div>` : null}
    <${ErrorBox} error=${sendError ?? removeError ?? files.error} />
    <p class="muted">Folder: <code>${detail.sync_mode.directory}</code></p>
    <${DataTable} rows=${files.data?.files ?? []} empty="No files in the folder yet." columns=${[
      'name', { key: 'size', label: 'size', render: (r) => bytes(r.size) }, { key: 'modified_at', label: 'modified', render: (r) => ago(r.modified_at) },
      { key: 'loaded', label: 'loaded', render: (r) => html`<${Pill} value=${r.loaded ? 'ok' : 'not_synced'} label=${r.loaded ? 'loaded' : 'not loaded'} />` },
      { key: 'act', label: '', render: (r) => (can('csv.delete') ? html`<button class="secondary small" onClick=${() => remove(r)} aria-label=${`Delete ${r.name}`}>Delete</button>` : '') },
    ]} />`;
}

export function SourcePage({ name }) {
  const { can } = useSession();
  const [q, setQ] = useQueryState();
  const { data: detail, error, reload } = useApi(`/api/sources/${enc(name)}/details`);
  if (error) return html`<p><a href="/sources">← Sources</a></p><${ErrorBox} error=${error} />`;
  if (!detail) return html`<p class="muted">Loading…</p>`;
  const tab = q.tab ?? 'tables';
  const tabs = [['tables', 'Tables'], ['history', 'Sync history'], ['logs', 'Logs'], ...(can('governance.view') ? [['schema', 'Schema changes'], ['pii', 'PII']] : []), ...(detail.sync_mode.directory ? [['files', 'Files']] : [])];
  return html`<p><a href="/sources">← Sources</a></p>
    <div class="page-head"><h1>${detail.name}</h1><${Pill} value=${detail.enabled ? detail.status : 'disabled'} />${detail.needs_attention ? html`<${Pill} value="attention" label="needs attention" />` : null}</div>
    <div class="cards">
      <div class="card"><div class="label">Type</div><div class="value">${detail.type}</div><div class="muted">${detail.sync_mode.mode} sync</div></div>
      <div class="card"><div class="label">Rows</div><div class="value">${fmt(detail.row_count)}</div><div class="muted">in ${detail.tables.length} tables (${detail.raw_schema})</div></div>
      <div class="card"><div class="label">Last sync</div><div class="value">${ago(detail.last_sync)}</div><div class="muted">${detail.freshness?.days_old !== null && detail.freshness?.days_old !== undefined ? `${detail.freshness.days_old} days old` : 'never synced'}</div></div>
    </div>
    <${SyncControl} source=${detail} onDone=${reload} />
    <${Tabs} tabs=${tabs} active=${tab} onChange=${(t) => setQ({ tab: t }, { replace: true })} />
    ${tab === 'tables' ? html`<${Tables} detail=${detail} />` : null}
    ${tab === 'history' ? html`<${History} detail=${detail} />` : null}
    ${tab === 'logs' ? html`<${Logs} name=${detail.name} />` : null}
    ${tab === 'schema' ? html`<${SchemaChanges} detail=${detail} reload=${reload} />` : null}
    ${tab === 'pii' ? html`<${Pii} name=${detail.name} />` : null}
    ${tab === 'files' ? html`<${Files} detail=${detail} reload=${reload} />` : null}`;
}
