// The lineage graph: nodes and edges laid out by dagre (bundled at build time), drawn as SVG.
import { useEffect, useState } from 'preact/hooks';
import { html } from '@basin/ui/components.js';

const COLORS = { raw: ['#e8f1ff', '#1a62d6'], staging: ['#e9f8ee', '#1a7f37'], intermediate: ['#fff6e0', '#8a5c00'], marts: ['#f3ecff', '#6f3fc9'] };

/** nodes within `depth` steps up or down from `focus` (every node when there is no focus) */
export function focusGraph(lineage, focus, depth) {
  if (!focus) return lineage;
  const up = new Map();
  const down = new Map();
  for (const e of lineage.edges) {
    (down.get(e.from) ?? down.set(e.from, []).get(e.from)).push(e.to);
    (up.get(e.to) ?? up.set(e.to, []).get(e.to)).push(e.from);
  }
  const keep = new Set([focus]);
  for (const dir of [up, down]) {
    let frontier = [focus];
    for (let i = 0; i < depth; i++) {
      frontier = frontier.flatMap((n) => dir.get(n) ?? []).filter((n) => !keep.has(n) && keep.add(n));
    }
  }
  return { ...lineage, nodes: lineage.nodes.filter((n) => keep.has(n.id)), edges: lineage.edges.filter((e) => keep.has(e.from) && keep.has(e.to)) };
}

export function LineageGraph({ graph, selected, highlight = new Set(), onSelect }) {
  const [layout, setLayout] = useState(null);
  useEffect(() => {
    let cancelled = false;
    import('/ui/vendor/graph.js').then(({ dagre }) => {
      if (cancelled) return;
      const g = new dagre.graphlib.Graph();
      g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 70, marginx: 12, marginy: 12 });
      g.setDefaultEdgeLabel(() => ({}));
      for (const n of graph.nodes) g.setNode(n.id, { width: Math.max(90, n.name.length * 7 + 26), height: 30, node: n });
      for (const e of graph.edges) if (g.hasNode(e.from) && g.hasNode(e.to)) g.setEdge(e.from, e.to);
      dagre.layout(g);
      setLayout({ width: g.graph().width, height: g.graph().height, nodes: g.nodes().map((id) => g.node(id)), edges: g.edges().map((e) => ({ ...e, points: g.edge(e).points })) });
    });
    return () => (cancelled = true);
  }, [graph]);
  if (!layout) return html`<p class="muted">Laying out the graph…</p>`;
  if (!graph.nodes.length) return html`<p class="muted">Nothing to show.</p>`;
  return html`<div class="graph" tabindex="0" role="region" aria-label="Lineage graph (scrolls)"><svg width=${layout.width} height=${layout.height} role="group" aria-label="Lineage graph">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#7b8794" /></marker></defs>
    ${layout.edges.map((e) => html`<path d=${`M ${e.points.map((p) => `${p.x} ${p.y}`).join(' L ')}`} fill="none" stroke=${highlight.has(e.v) && highlight.has(e.w) ? '#d97706' : '#9aa5b1'} stroke-width=${highlight.has(e.v) && highlight.has(e.w) ? 2.5 : 1.3} marker-end="url(#arrow)" />`)}
    ${layout.nodes.map((n) => {
      const [fill, stroke] = COLORS[n.node.layer] ?? ['#f0f3f6', '#5d6b7a'];
      const sel = n.node.id === selected;
      return html`<g class="node" data-id=${n.node.id} data-name=${n.node.name} transform=${`translate(${n.x - n.width / 2},${n.y - n.height / 2})`} tabindex="0" role="button" aria-label=${`${n.node.name} (${n.node.layer})`}
        onClick=${() => onSelect(n.node)} onKeyDown=${(ev) => (ev.key === 'Enter' || ev.key === ' ') && (ev.preventDefault(), onSelect(n.node))}>
        <rect width=${n.width} height=${n.height} rx="6" fill=${highlight.has(n.node.id) ? '#fff1c2' : fill} stroke=${sel ? '#111' : stroke} stroke-width=${sel ? 3 : 1.5} />
        <text x=${n.width / 2} y=${n.height / 2 + 4} text-anchor="middle" fill="#1b2430">${n.node.name}</text>
      </g>`;
    })}
  </svg></div>`;
}
