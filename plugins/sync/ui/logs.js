// /logs: sync log lines of every source with filters (source, level, time range), pages of {items,total}, live tail.
import { useEffect, useState } from 'preact/hooks';
import { html, api, useApi, DataTable, Pill, ErrorBox, useQueryState } from '@basin/ui/components.js';

const PAGE = 50;
const RANGES = [['', 'Any time'], ['1h', 'Last hour'], ['24h', 'Last 24 hours'], ['7d', 'Last 7 days']];
const since = (r) => (r ? new Date(Date.now() - { '1h': 3600e3, '24h': 86400e3, '7d': 7 * 86400e3 }[r]).toISOString() : '');

export default function Logs() {
  const [q, setQ] = useQueryState();
  const sources = useApi('/api/sources');
  const [tail, setTail] = useState(false);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const offset = Number(q.offset ?? 0);
  const load = () => {
    const p = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (q.source) p.set('source', q.source);
    if (q.level) p.set('level', q.level);
    if (q.range) p.set('since', since(q.range));
    api(`/api/logs?${p}`).then((d) => (setData(d), setError(null)), setError);
  };
  useEffect(load, [q.source, q.level, q.range, offset]);
  useEffect(() => {
    if (!tail) return undefined;
    const t = setInterval(load, 2000);
    return () => clearInterval(t);
  }, [tail, q.source, q.level, q.range, offset]);
  const set = (patch) => setQ({ ...patch, offset: undefined });
  return html`<div class="page-head"><h1>Logs</h1></div>
    <div class="row filters">
      <label>Source <select value=${q.source ?? ''} onChange=${(e) => set({ source: e.target.value })}><option value="">All sources</option>${(sources.data ?? []).map((s) => html`<option value=${s.name}>${s.name}</option>`)}</select></label>
      <label>Level <select value=${q.level ?? ''} onChange=${(e) => set({ level: e.target.value })}><option value="">All levels</option>${['info', 'warn', 'error'].map((l) => html`<option value=${l}>${l}</option>`)}</select></label>
      <label>Time <select value=${q.range ?? ''} onChange=${(e) => set({ range: e.target.value })}>${RANGES.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></label>
      <label class="inline"><input type="checkbox" checked=${tail} onChange=${(e) => (setTail(e.target.checked), e.target.checked && setQ({ offset: undefined }))} /> Live tail</label>
    </div>
    <${ErrorBox} error=${error} />
    ${data
      ? html`<${DataTable} rows=${data.items} empty="No log lines match." columns=${[
          { key: 'at', label: 'time', render: (r) => new Date(r.at).toLocaleString() },
          { key: 'source', label: 'source', render: (r) => html`<a href=${`/sources?name=${encodeURIComponent(r.source)}&tab=logs`}>${r.source}</a>` },
          { key: 'level', label: 'level', render: (r) => html`<${Pill} value=${r.level} />` },
          'message',
        ]} />
        <div class="row" style="margin-top:10px">
          <button class="secondary small" disabled=${offset === 0} onClick=${() => setQ({ offset: Math.max(0, offset - PAGE) || undefined })}>Newer</button>
          <span class="muted">${data.total ? `${offset + 1}–${Math.min(offset + PAGE, data.total)} of ${data.total}` : '0 lines'}</span>
          <button class="secondary small" disabled=${offset + PAGE >= data.total} onClick=${() => setQ({ offset: offset + PAGE })}>Older</button>
        </div>`
      : html`<p class="muted">Loading…</p>`}`;
}
