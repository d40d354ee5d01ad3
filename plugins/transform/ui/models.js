// /models: layers, materialization, last run and status, run one model (or with everything downstream),
// run all / test, live per-model status from dbt's output during a run, test results, the dbt docs.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, api, useApi, DataTable, Pill, ErrorBox, ago, fmt, useSession, useLiveEvent, useAction } from '@basin/ui/components.js';

const LAYERS = ['staging', 'intermediate', 'marts'];
const enc = encodeURIComponent;

/** dbt's "3 of 8 OK created sql table model main.fct_orders ..." lines -> {fct_orders: 'ok'} */
function statusFromOutput(lines, into) {
  for (const l of lines) {
    const m = /\d+ of \d+ (START|OK|ERROR|FAIL|PASS|WARN|SKIP)\b.*?\b(?:model|test|seed|snapshot) (?:[\w"]+\.)*"?([\w]+)"?/.exec(l);
    if (m) into[m[2]] = m[1] === 'START' ? 'running' : m[1] === 'OK' || m[1] === 'PASS' ? 'success' : m[1] === 'SKIP' ? 'skipped' : m[1] === 'WARN' ? 'warn' : 'error';
  }
  return into;
}

/** follows one run: polls its output while it runs (per-model status) and stops when it finishes */
function useRun(onFinish) {
  const [run, setRun] = useState(null);
  const timer = useRef(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  const follow = (rec) => {
    const state = { id: rec.id, status: rec.status, command: rec.command, selector: rec.selector, models: {}, lines: [], next: 0 };
    setRun({ ...state });
    const poll = async () => {
      try {
        const out = await api(`/api/tx/runs/${enc(state.id)}/output?after=${state.next}`);
        state.lines = [...state.lines, ...out.lines].slice(-400);
        state.next = out.next;
        state.status = out.status;
        statusFromOutput(out.lines, state.models);
        setRun({ ...state, models: { ...state.models } });
        if (out.finished) {
          const final = await api(`/api/tx/runs/${enc(state.id)}`).catch(() => null);
          if (final) setRun({ ...state, status: final.status, error: final.error, results: final.models });
          onFinish();
          return;
        }
      } catch {
        /* a dropped request: try again */
      }
      timer.current = setTimeout(poll, 700);
    };
    poll();
  };
  return [run, follow];
}

export default function Models() {
  const { can } = useSession();
  const models = useApi('/api/tx/models');
  const [run, follow] = useRun(() => models.reload());
  const [layer, setLayer] = useState('');
  const [start, busy, error] = useAction(async (path, body) => follow(await api(path, { method: 'POST', body })));
  const [cancel, , cancelError] = useAction(() => api(`/api/tx/runs/${enc(run.id)}/cancel`, { method: 'POST' }));
  useLiveEvent(['tx_run_started'], (ev) => {
    if (!run || ['succeeded', 'failed', 'cancelled'].includes(run.status)) if (ev.run_id ?? ev.id) follow({ id: ev.run_id ?? ev.id, status: 'running', command: ev.command });
  });
  const running = run && ['queued', 'running'].includes(run.status);
  const list = (Array.isArray(models.data) ? models.data : models.data?.models ?? []).filter((m) => m.resource_type !== 'source' && (!layer || m.layer === layer));
  const live = (m) => run?.models[m.name];
  return html`<div class="page-head"><h1>Models</h1>
      <div class="actions">
        <a class="button secondary" href="/tx-docs/">dbt docs</a>
        ${can('tx.run') ? html`<button onClick=${() => start('/api/tx/runs', { command: 'run' })} disabled=${busy || running}>Run all</button>
          <button class="secondary" onClick=${() => start('/api/tx/runs', { command: 'test' })} disabled=${busy || running}>Test all</button>` : null}
      </div></div>
    <${ErrorBox} error=${models.error ?? error ?? cancelError} />
    ${run ? html`<div class="card tx-run" aria-live="polite">
      <div class="row"><strong>dbt ${run.command ?? ''}${run.selector ? ` ${run.selector}` : ''}</strong> <${Pill} value=${run.status} />
        ${running && can('tx.run') ? html`<button class="secondary small" onClick=${cancel}>Cancel</button>` : null}</div>
      ${run.error ? html`<div class="error">${run.error}</div>` : null}
      <details><summary>dbt output (${run.lines.length} lines)</summary><pre>${run.lines.join('\n')}</pre></details>
    </div>` : null}
    <div class="row filters"><label>Layer <select value=${layer} onChange=${(e) => setLayer(e.target.value)}><option value="">All layers</option>${LAYERS.map((l) => html`<option value=${l}>${l}</option>`)}</select></label></div>
    <${DataTable} rows=${list} empty=${models.loading ? 'Loading…' : 'No dbt models yet: sync a source and Basin generates staging models.'} columns=${[
      { key: 'name', label: 'model', render: (m) => html`<a href=${`/catalog?model=${enc(m.name)}`}>${m.name}</a>${m.description ? html`<div class="muted">${m.description}</div>` : null}` },
      { key: 'layer', label: 'layer', render: (m) => html`<${Pill} value=${m.layer} />` },
      { key: 'materialization', label: 'materialized' },
      { key: 'status', label: 'last run', render: (m) => html`<span class="model-status" data-model=${m.name}><${Pill} value=${live(m) ?? m.status ?? m.last_run?.status ?? 'not run'} /></span> <span class="muted">${live(m) ? 'now' : ago(m.last_run?.finished_at)}</span>${m.error ? html`<div class="error">${m.error}</div>` : null}` },
      { key: 'rows_affected', label: 'rows', render: (m) => fmt(m.rows_affected ?? m.last_run?.rows_affected) },
      { key: 'duration_seconds', label: 'time', render: (m) => (m.duration_seconds != null ? `${m.duration_seconds} s` : '—') },
      ...(can('tx.run') ? [{
        key: 'act', label: 'run',
        render: (m) => html`<div class="row"><button class="secondary small" disabled=${running} onClick=${() => start(`/api/tx/models/${enc(m.name)}/run?cascade=false`)} aria-label=${`Run ${m.name}`}>Run</button>
          <button class="secondary small" disabled=${running} onClick=${() => start(`/api/tx/models/${enc(m.name)}/run?cascade=true`)} aria-label=${`Run ${m.name} and downstream`}>+ downstream</button></div>`,
      }] : []),
    ]} />
    <h2>Test results</h2>
    ${run?.results?.some((r) => r.resource_type === 'test')
      ? html`<${DataTable} rows=${run.results.filter((r) => r.resource_type === 'test')} columns=${['name', { key: 'status', label: 'status', render: (r) => html`<${Pill} value=${r.status} />` }, 'error']} />`
      : html`<p class="muted">Run “Test all” to see the results of dbt's tests here; each model's tests are also under its Tests tab in the <a href="/catalog">catalog</a>.</p>`}`;
}
