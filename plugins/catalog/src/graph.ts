import { isBasinTable } from '@basin/core';
import type { DbtArtifacts, ManifestNode } from './artifacts.js';
import type { WarehouseTable } from './warehouse-tables.js';

export type Layer = 'raw' | 'staging' | 'intermediate' | 'marts';
export const LAYERS: Layer[] = ['raw', 'staging', 'intermediate', 'marts'];

export interface CatalogTest {
  id: string;
  name: string;
  type: string;
  column: string | null;
  status: string | null;
}

export interface CatalogColumn {
  name: string;
  type: string | null;
  nullable: boolean | null;
  description: string;
  tests: string[];
}

export interface CatalogNode {
  id: string;
  name: string;
  /** raw = a table loaded by a source; model/seed/snapshot = dbt resources */
  kind: 'raw' | 'model' | 'seed' | 'snapshot';
  layer: Layer;
  /** for raw tables: the Basin source that loads it */
  source: string | null;
  schema: string | null;
  relation: string | null;
  description: string;
  tags: string[];
  materialized: string | null;
  path: string | null;
  raw_sql: string | null;
  compiled_sql: string | null;
  columns: CatalogColumn[];
  tests: CatalogTest[];
  depends_on: string[];
  estimated_rows: number | null;
  in_warehouse: boolean;
}

export interface CatalogGraph {
  nodes: Map<string, CatalogNode>;
  /** child ids per node */
  children: Map<string, string[]>;
  byName: Map<string, CatalogNode>;
}

export const rawId = (schema: string, table: string) => `raw.${schema}.${table}`;
const sourceOfSchema = (schema: string) => (schema.startsWith('raw_') ? schema.slice(4) : schema);

export function layerOf(name: string, path: string | null, kind: CatalogNode['kind']): Layer {
  if (kind === 'raw') return 'raw';
  const p = (path ?? '').replace(/\\/g, '/');
  if (name.startsWith('stg_') || /(^|\/)staging\//.test(p)) return 'staging';
  if (name.startsWith('int_') || /(^|\/)intermediate\//.test(p)) return 'intermediate';
  return 'marts';
}

/**
 * One graph of everything the catalog shows: raw tables (from the warehouse's `raw_*` schemas and
 * dbt sources) and dbt models, joined by dbt's `depends_on`. Without a manifest, tables outside raw
 * schemas are listed as models without SQL so the catalog is still useful before dbt first runs.
 */
export function buildGraph(artifacts: DbtArtifacts, tables: WarehouseTable[], basinSchema: (engineSchema: string) => string = (x) => x): CatalogGraph {
  const nodes = new Map<string, CatalogNode>();
  const tableAt = new Map(tables.map((t) => [`${t.schema}\u0000${t.name}`, t]));
  const m = artifacts.manifest;
  const runStatus = new Map((artifacts.runResults?.results ?? []).map((r) => [r.unique_id, r.status]));
  const catalogCols = (id: string) => artifacts.catalog?.nodes?.[id]?.columns ?? artifacts.catalog?.sources?.[id]?.columns ?? {};

  const columnsFor = (id: string, mcols: ManifestNode['columns'], wt: WarehouseTable | undefined): CatalogColumn[] => {
    const described = new Map(Object.values(mcols ?? {}).map((c) => [c.name.toLowerCase(), c]));
    const typed = new Map(Object.values(catalogCols(id)).map((c) => [c.name.toLowerCase(), c.type]));
    const names = wt ? wt.columns.map((c) => c.name) : [...new Set([...Object.values(catalogCols(id)).sort((a, b) => a.index - b.index).map((c) => c.name), ...Object.values(mcols ?? {}).map((c) => c.name)])];
    return names.map((name) => {
      const w = wt?.columns.find((c) => c.name === name);
      const d = described.get(name.toLowerCase());
      return { name, type: w?.type ?? typed.get(name.toLowerCase()) ?? d?.data_type ?? null, nullable: w ? w.nullable : null, description: d?.description ?? '', tests: [] };
    });
  };

  // raw tables in the warehouse
  for (const t of tables) {
    // a raw schema's `_basin_files` is Basin's bookkeeping (docs/sources.md), not a source table
    if (!t.schema.startsWith('raw_') || isBasinTable(t.name)) continue;
    nodes.set(rawId(t.schema, t.name), {
      id: rawId(t.schema, t.name), name: `${sourceOfSchema(t.schema)}.${t.name}`, kind: 'raw', layer: 'raw', source: sourceOfSchema(t.schema), schema: t.schema, relation: t.name,
      description: '', tags: [], materialized: null, path: null, raw_sql: null, compiled_sql: null, columns: columnsFor('', {}, t), tests: [], depends_on: [], estimated_rows: t.estimated_rows, in_warehouse: true,
    });
  }
  // dbt sources map onto the same raw nodes
  const sourceAlias = new Map<string, string>();
  for (const s of Object.values(m?.sources ?? {})) {
    // dbt names the engine's schema (a server's schema_prefix included); the catalog uses Basin's
    const schema = s.schema ? basinSchema(s.schema) : (s.source_name ?? '');
    const table = s.identifier ?? s.name;
    const id = rawId(schema, table);
    sourceAlias.set(s.unique_id, id);
    const wt = tableAt.get(`${schema}\u0000${table}`);
    const existing = nodes.get(id);
    nodes.set(id, {
      id, name: existing?.name ?? `${s.source_name ?? sourceOfSchema(schema)}.${s.name}`, kind: 'raw', layer: 'raw', source: existing?.source ?? s.source_name ?? sourceOfSchema(schema), schema, relation: table,
      description: s.description ?? '', tags: s.tags ?? [], materialized: null, path: s.original_file_path ?? null, raw_sql: null, compiled_sql: null,
      columns: columnsFor(s.unique_id, s.columns, wt), tests: [], depends_on: [], estimated_rows: wt?.estimated_rows ?? null, in_warehouse: !!wt,
    });
  }
  // dbt models, seeds, snapshots
  const dbtKinds = new Set(['model', 'seed', 'snapshot']);
  for (const n of Object.values(m?.nodes ?? {})) {
    if (!dbtKinds.has(n.resource_type)) continue;
    const relation = n.alias || n.identifier || n.name;
    const nodeSchema = n.schema ? basinSchema(n.schema) : null;
    const wt = nodeSchema ? tableAt.get(`${nodeSchema}\u0000${relation}`) : undefined;
    const kind = n.resource_type as CatalogNode['kind'];
    nodes.set(n.unique_id, {
      id: n.unique_id, name: n.name, kind, layer: layerOf(n.name, n.original_file_path ?? n.path ?? null, kind), source: null, schema: nodeSchema, relation,
      description: n.description ?? '', tags: n.tags ?? [], materialized: n.config?.materialized ?? null, path: n.original_file_path ?? n.path ?? null,
      raw_sql: n.raw_code ?? n.raw_sql ?? null, compiled_sql: n.compiled_code ?? n.compiled_sql ?? null, columns: columnsFor(n.unique_id, n.columns, wt), tests: [],
      depends_on: [], estimated_rows: wt?.estimated_rows ?? null, in_warehouse: !!wt,
    });
  }
  // dependencies (sources resolved to raw nodes), then tests attached to the node they check
  for (const n of Object.values(m?.nodes ?? {})) {
    const self = nodes.get(n.unique_id);
    if (self) self.depends_on = [...new Set((n.depends_on?.nodes ?? []).map((d) => sourceAlias.get(d) ?? d).filter((d) => nodes.has(d)))];
  }
  for (const n of Object.values(m?.nodes ?? {})) {
    if (n.resource_type !== 'test') continue;
    const targets = n.attached_node ? [n.attached_node] : (n.depends_on?.nodes ?? []);
    for (const t of targets) {
      const node = nodes.get(sourceAlias.get(t) ?? t);
      if (!node) continue;
      const test: CatalogTest = { id: n.unique_id, name: n.name, type: n.test_metadata?.name ?? 'singular', column: n.column_name ?? (n.test_metadata?.kwargs?.column_name as string | undefined) ?? null, status: runStatus.get(n.unique_id) ?? null };
      node.tests.push(test);
      const col = test.column ? node.columns.find((c) => c.name.toLowerCase() === test.column!.toLowerCase()) : undefined;
      if (col) col.tests.push(test.type);
    }
  }
  // without a manifest: warehouse tables outside raw schemas stand in for models
  if (!m) {
    for (const t of tables) {
      if (t.schema.startsWith('raw_') || t.schema.startsWith('_')) continue;
      const id = `model.${t.schema}.${t.name}`;
      nodes.set(id, {
        id, name: t.name, kind: 'model', layer: layerOf(t.name, null, 'model'), source: null, schema: t.schema, relation: t.name, description: '', tags: [],
        materialized: t.kind, path: null, raw_sql: null, compiled_sql: null, columns: columnsFor(id, {}, t), tests: [], depends_on: [], estimated_rows: t.estimated_rows, in_warehouse: true,
      });
    }
  }
  const children = new Map<string, string[]>();
  for (const n of nodes.values()) for (const d of n.depends_on) children.set(d, [...(children.get(d) ?? []), n.id]);
  const byName = new Map<string, CatalogNode>();
  for (const n of nodes.values()) if (n.kind !== 'raw' && !byName.has(n.name)) byName.set(n.name, n);
  for (const n of nodes.values()) if (n.kind === 'raw' && !byName.has(n.name)) byName.set(n.name, n);
  return { nodes, children, byName };
}

/** Every node reachable downstream, as a tree (a node reached twice is listed under each parent, counted once). */
export function impactTree(g: CatalogGraph, id: string): { tree: ImpactEntry[]; total: number } {
  const seen = new Set<string>();
  const walk = (from: string, path: Set<string>): ImpactEntry[] =>
    (g.children.get(from) ?? [])
      .filter((c) => !path.has(c))
      .sort()
      .map((c) => {
        seen.add(c);
        const n = g.nodes.get(c)!;
        return { id: c, name: n.name, layer: n.layer, kind: n.kind, children: walk(c, new Set([...path, c])) };
      });
  const tree = walk(id, new Set([id]));
  return { tree, total: seen.size };
}
export interface ImpactEntry {
  id: string;
  name: string;
  layer: Layer;
  kind: CatalogNode['kind'];
  children: ImpactEntry[];
}

/** Ancestors and descendants of a node, for a model's own lineage view. */
export function neighbourhood(g: CatalogGraph, id: string): Set<string> {
  const out = new Set<string>([id]);
  const up = [id];
  while (up.length) for (const d of g.nodes.get(up.pop()!)?.depends_on ?? []) if (!out.has(d)) (out.add(d), up.push(d));
  const down = [id];
  const seenDown = new Set<string>([id]);
  while (down.length) for (const c of g.children.get(down.pop()!) ?? []) if (!seenDown.has(c)) (seenDown.add(c), out.add(c), down.push(c));
  return out;
}

export function lineageOf(g: CatalogGraph, ids?: Set<string>) {
  const pick = [...g.nodes.values()].filter((n) => !ids || ids.has(n.id));
  return {
    nodes: pick.map((n) => ({ id: n.id, name: n.name, kind: n.kind, layer: n.layer, schema: n.schema, relation: n.relation, source: n.source })),
    edges: pick.flatMap((n) => n.depends_on.filter((d) => !ids || ids.has(d)).map((d) => ({ from: d, to: n.id }))),
  };
}
