// /query: the dashboard tool's SQL page when it runs; otherwise Basin's own SQL page over POST /api/query
// with CodeMirror (bundled at build time), a results grid, the row-cap note, CSV download and a quick chart.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, api, DataTable, ErrorBox, Chart } from '@basin/ui/components.js';

const csvCell = (v) => {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const NUMERIC = /INT|DOUBLE|FLOAT|DECIMAL|REAL|NUMERIC|HUGEINT/i;
const TEMPORAL = /DATE|TIME/i;

function Editor({ value, onChange, onRun }) {
  const ref = useRef(null);
  const view = useRef(null);
  const run = useRef(onRun);
  run.current = onRun;
  useEffect(() => {
    let cancelled = false;
    import('/ui/vendor/editor.js').then(({ EditorView, basicSetup, sql, keymap }) => {
      if (cancelled) return;
      view.current = new EditorView({
        doc: value,
        parent: ref.current,
        extensions: [
          keymap.of([{ key: 'Mod-Enter', run: () => (run.current(), true) }]),
          basicSetup,
          sql(),
          EditorView.updateListener.of((u) => u.docChanged && onChange(u.state.doc.toString())),
          EditorView.contentAttributes.of({ 'aria-label': 'SQL' }),
        ],
      });
    });
    return () => ((cancelled = true), view.current?.destroy());
  }, []);
  return html`<div ref=${ref} class="sql-editor"></div>`;
}

export default function Query() {
  const [mode, setMode] = useState('checking');
  const [sqlText, setSql] = useState(localStorage.getItem('basin.sql') ?? 'SELECT table_schema, table_name\nFROM information_schema.tables\nORDER BY 1, 2');
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [chart, setChart] = useState(false);
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.has('basin')) return setMode('basin');
    api('/api/status').then((s) => {
      const bi = s.companions?.find((c) => c.name === 'bi');
      if (bi?.state === 'running') location.replace('/bi/sqllab/');
      else setMode('basin');
    }, () => setMode('basin'));
  }, []);
  const run = async () => {
    setBusy(true);
    setError(null);
    localStorage.setItem('basin.sql', sqlText);
    try {
      setResult(await api('/api/query', { method: 'POST', body: { sql: sqlText } }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const download = () => {
    const lines = [result.columns.map((c) => csvCell(c.name)).join(','), ...result.rows.map((r) => r.map(csvCell).join(','))];
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }));
    a.download = 'query.csv';
    a.click();
    URL.revokeObjectURL(a.href);
  };
  if (mode === 'checking') return html`<p class="muted">Opening the SQL page…</p>`;
  // quick chart: the first temporal or text column against the numeric ones
  const xCol = result?.columns.findIndex((c) => TEMPORAL.test(c.type)) ?? -1;
  const yCols = (result?.columns ?? []).map((c, i) => [c, i]).filter(([c]) => NUMERIC.test(c.type));
  const chartable = result && result.rows.length > 1 && yCols.length;
  return html`<div class="page-head"><h1>SQL</h1><span class="muted">Read-only, on the serving copy of the warehouse. Ctrl+Enter runs.</span></div>
    <${Editor} value=${sqlText} onChange=${setSql} onRun=${run} />
    <div class="row" style="margin:10px 0"><button onClick=${run} disabled=${busy}>${busy ? 'Running…' : 'Run'}</button>
      ${result ? html`<button class="secondary" onClick=${download}>Download CSV</button>
        ${chartable ? html`<button class="secondary" aria-pressed=${chart} onClick=${() => setChart(!chart)}>${chart ? 'Hide chart' : 'Quick chart'}</button>` : null}
        <span class="muted">${result.row_count} rows · ${result.elapsed_ms} ms</span>` : null}</div>
    <${ErrorBox} error=${error} />
    ${result?.truncated ? html`<div class="notice" role="status">Only the first ${result.row_count} rows are shown: the server caps results (api.query_max_rows). Add a LIMIT or aggregate to see everything.</div>` : null}
    ${chart && chartable
      ? html`<${Chart} title="quick chart" time=${xCol >= 0} bars=${xCol < 0} height=${220}
          x=${result.rows.map((r, i) => (xCol >= 0 ? Date.parse(r[xCol]) / 1000 : i))}
          series=${yCols.slice(0, 4).map(([c, i], k) => ({ label: c.name, values: result.rows.map((r) => Number(r[i])), color: ['#1a62d6', '#d97706', '#1a7f37', '#6f3fc9'][k] }))} />`
      : null}
    ${result ? html`<${DataTable} rows=${result.rows.map((r) => Object.fromEntries(result.columns.map((c, i) => [c.name, r[i]])))} columns=${result.columns.map((c) => c.name)} empty="No rows." />` : null}`;
}
