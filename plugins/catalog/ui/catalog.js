// /catalog: sources and models with search (debounced 300 ms), type and source filters, a model's
// columns with profiles, SQL, tests, impact, and the lineage graph with focus depth and column
// lineage. View, model, tab, focus, source and type live in the URL (SPEC "HTML page routes").
import { useEffect, useMemo, useState } from 'preact/hooks';
import { html, api, useApi, DataTable, Pill, Tabs, ErrorBox, fmt, ago, useQueryState, useDebounced } from '@basin/ui/components.js';
import { LineageGraph, focusGraph } from './lineage-graph.js';

const TYPES = [['all', 'All'], ['sources', 'Sources'], ['staging', 'Staging'], ['intermediate', 'Intermediate'], ['marts', 'Marts']];
const DEPTHS = [1, 2, 3, 5];
const enc = encodeURIComponent;

function matchesType(n, type) {
  if (!type || type === 'all') return true;
  if (type === 'sources') return n.kind === 'raw' || n.type === 'source' || n.layer === 'raw';
  if (type === 'staging') return n.layer === 'staging' || n.name.startsWith('stg_');
  if (type === 'intermediate') return n.layer === 'intermediate' || n.name.startsWith('int_');
  return n.layer === 'marts';
}

function ImpactTree({ nodes }) {
  return html`<ul>${nodes.map((n) => html`<li><a href=${`/catalog?model=${enc(n.name)}`}>${n.name}</a> <span class="muted">${n.layer}</span>${n.children?.length ? html`<${ImpactTree} nodes=${n.children} />` : null}</li>`)}</ul>`;
}

function Columns({ model, column, onColumn }) {
  const lineage = new Map((model.column_lineage?.columns ?? []).map((c) => [c.column, c.sources]));
  const [profiling, setProfiling] = useState(false);
  const [error, setError] = useState(null);
  const [profiled, setProfiled] = useState(null);
  const cols = profiled ?? model.columns ?? [];
  const profile = async () => {
    setProfiling(true);
    setError(null);
    try {
      const r = await api(`/api/catalog/${enc(model.source ?? model.schema)}/${enc(model.relation)}/profile`, { method: 'POST' });
      setProfiled(cols.map((c) => ({ ...c, profile: (r.columns ?? r.profile ?? []).find?.((p) => p.name === c.name) ?? c.profile })));
    } catch (e) {
      setError(e);
    } finally {
      setProfiling(false);
    }
  };
  return html`<div class="row"><button class="secondary small" onClick=${profile} disabled=${profiling}>${profiling ? 'Profiling…' : 'Profile now'}</button><span class="muted">${model.profiled_at ? `profiled ${ago(model.profiled_at)}` : 'not profiled yet'}</span></div>
    <${ErrorBox} error=${error} />
    <${DataTable} rows=${cols} empty="No columns known (is it built?)." columns=${[
      { key: 'name', label: 'column', render: (c) => html`<button class=${c.name === column ? 'small' : 'ghost small'} aria-pressed=${c.name === column} onClick=${() => onColumn(c.name === column ? null : c.name)} title="Show where it comes from">${c.name}</button>` },
      'type',
      { key: 'null', label: 'null %', render: (c) => (c.profile ? `${fmt(c.profile.null_percentage)}%` : '—') },
      { key: 'distinct', label: 'distinct', render: (c) => (c.profile ? `${fmt(c.profile.distinct_count)}${c.profile.distinct_is_approximate ? ' ≈' : ''}` : '—') },
      { key: 'range', label: 'min … max', render: (c) => (c.profile && c.profile.min !== null ? `${c.profile.min} … ${c.profile.max}` : '—') },
      { key: 'tests', label: 'tests', render: (c) => (c.tests ?? []).join(', ') },
      { key: 'from', label: 'comes from', render: (c) => (lineage.get(c.name) ?? []).map((s) => html`<a href=${`/catalog?model=${enc(s.name)}&tab=columns&col=${enc(s.column)}&view=${'graph'}`}>${s.name}.${s.column}</a> `) },
    ]} />`;
}

function ModelDetail({ name, q, setQ, lineage }) {
  const { data: model, error } = useApi(`/api/catalog/models/${enc(name)}`);
  const impact = useApi(q.tab === 'impact' ? `/api/catalog/impact/${enc(name)}` : null);
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!model) return html`<p class="muted">Loading…</p>`;
  const tab = q.tab ?? 'columns';
  const depth = Number(q.focus ?? 2);
  const column = q.col ?? null;
  // column lineage: the nodes the chosen column comes from, followed upstream through what the API reports
  const highlight = new Set([model.id, ...((model.column_lineage?.columns ?? []).find((c) => c.column === column)?.sources ?? []).map((s) => s.node)]);
  return html`<div class="page-head"><h2 style="margin:0">${model.name}</h2><${Pill} value=${model.layer} />${model.materialized ? html`<span class="muted">${model.materialized}</span>` : null}</div>
    <p>${model.description || html`<span class="muted">No description.</span>`}</p>
    <dl class="kv"><dt>Relation</dt><dd><code>${model.schema}.${model.relation}</code></dd><dt>Rows</dt><dd>${fmt(model.estimated_rows)}</dd>${model.path ? html`<dt>File</dt><dd><code>${model.path}</code></dd>` : null}</dl>
    <${Tabs} tabs=${[['columns', 'Columns'], ['lineage', 'Lineage'], ['sql', 'SQL'], ['tests', `Tests (${model.tests?.length ?? 0})`], ['impact', 'Impact']]} active=${tab} onChange=${(t) => setQ({ tab: t }, { replace: true })} />
    ${tab === 'columns' ? html`<${Columns} model=${model} column=${column} onColumn=${(c) => setQ({ col: c }, { replace: true })} />` : null}
    ${tab === 'lineage' || (tab === 'columns' && column)
      ? html`<div class="row"><span>Focus depth</span>${DEPTHS.map((d) => html`<button class=${d === depth ? 'small' : 'secondary small'} aria-pressed=${d === depth} onClick=${() => setQ({ focus: d }, { replace: true })}>${d}</button>`)}
          ${column ? html`<span class="muted">Highlighted: where <code>${column}</code> comes from</span>` : html`<span class="muted">Click a column under Columns to trace it.</span>`}</div>
        <${LineageGraph} graph=${focusGraph(lineage, model.id, depth)} selected=${model.id} highlight=${highlight} onSelect=${(n) => setQ({ model: n.name, col: undefined })} />`
      : null}
    ${tab === 'sql' ? html`${model.raw_sql ? html`<h3>Model SQL</h3><pre>${model.raw_sql}</pre>` : null}${model.compiled_sql ? html`<h3>Compiled</h3><pre>${model.compiled_sql}</pre>` : null}${!model.raw_sql && !model.compiled_sql ? html`<p class="muted">No SQL: this is a loaded table.</p>` : null}` : null}
    ${tab === 'tests' ? html`<${DataTable} rows=${model.tests ?? []} empty="No tests on this model." columns=${['name', 'type', 'column', { key: 'status', label: 'status', render: (t) => html`<${Pill} value=${t.status ?? 'not run'} />` }]} />` : null}
    ${tab === 'impact' ? (impact.data ? html`<p>${impact.data.total} models depend on ${model.name}, directly or further down.</p><${ImpactTree} nodes=${impact.data.downstream} />` : html`<${ErrorBox} error=${impact.error} />`) : null}`;
}

export default function Catalog() {
  const [q, setQ] = useQueryState();
  const models = useApi('/api/catalog/models');
  const lineageApi = useApi('/api/catalog/lineage');
  const [text, setText] = useState(q.q ?? '');
  const search = useDebounced(text, 300);
  const [hits, setHits] = useState(null);
  useEffect(() => {
    if (search !== (q.q ?? '')) setQ({ q: search }, { replace: true });
    if (search.trim().length < 2) return setHits(null);
    api(`/api/catalog/search?q=${enc(search.trim())}`).then(setHits, () => setHits([]));
  }, [search]);
  const lineage = lineageApi.data ?? { nodes: [], edges: [] };
  const all = models.data ?? [];
  const sources = [...new Set(all.map((m) => m.source).filter(Boolean))].sort();
  const hitIds = hits ? new Set(hits.map((h) => h.id)) : null;
  const list = all.filter((m) => matchesType(m, q.type) && (!q.source || m.source === q.source) && (!hitIds || hitIds.has(m.id)));
  const graph = useMemo(() => {
    const keep = new Set(list.map((m) => m.id));
    return { ...lineage, nodes: lineage.nodes.filter((n) => keep.has(n.id)), edges: lineage.edges.filter((e) => keep.has(e.from) && keep.has(e.to)) };
  }, [lineage, list.map((m) => m.id).join()]);
  const view = q.view ?? 'list';
  return html`<div class="page-head"><h1>Catalog</h1>
      <div class="actions"><${Tabs} tabs=${[['list', 'List'], ['graph', 'Lineage graph']]} active=${view} onChange=${(v) => setQ({ view: v })} /></div></div>
    <div class="row filters">
      <label>Search <input type="search" value=${text} onInput=${(e) => setText(e.target.value)} placeholder="names, descriptions, columns" /></label>
      <label>Type <select value=${q.type ?? 'all'} onChange=${(e) => setQ({ type: e.target.value === 'all' ? undefined : e.target.value })}>${TYPES.map(([v, l]) => html`<option value=${v}>${l}</option>`)}</select></label>
      <label>Source <select value=${q.source ?? ''} onChange=${(e) => setQ({ source: e.target.value })}><option value="">All sources</option>${sources.map((s) => html`<option value=${s}>${s}</option>`)}</select></label>
    </div>
    <${ErrorBox} error=${models.error ?? lineageApi.error} />
    ${view === 'graph' && !q.model ? html`<${LineageGraph} graph=${graph} selected=${null} onSelect=${(n) => setQ({ model: n.name, tab: 'lineage' })} />` : null}
    <div class=${q.model ? 'grid2 catalog-split' : ''}>
      <div>${view === 'list' || q.model
        ? html`<${DataTable} rows=${list} empty=${models.loading ? 'Loading…' : 'Nothing matches.'} columns=${[
            { key: 'name', label: 'name', render: (m) => html`<a href=${`/catalog?${new URLSearchParams({ ...q, model: m.name, tab: q.tab ?? 'columns' })}`} aria-current=${m.name === q.model ? 'true' : undefined}>${m.name}</a>` },
            { key: 'layer', label: 'layer', render: (m) => html`<${Pill} value=${m.layer} />` },
            { key: 'estimated_rows', label: 'rows', render: (m) => fmt(m.estimated_rows) },
            ...(q.model ? [] : [{ key: 'description', label: 'description' }, { key: 'column_count', label: 'columns' }]),
          ]} />`
        : null}</div>
      ${q.model ? html`<div class="card"><${ModelDetail} name=${q.model} q=${q} setQ=${setQ} lineage=${lineage} /></div>` : null}
    </div>`;
}
