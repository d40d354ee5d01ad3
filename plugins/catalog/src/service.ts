import crypto from 'node:crypto';
import { errors, type Clock, type Warehouse, type WarehouseClient } from '@basin/core';
import type { GovernanceView } from '@basin/plugin-governance/contract';
import type { ArtifactReader } from './artifacts.js';
import { columnLineageFromParseTree, type ColumnLineage } from './column-lineage.js';
import { buildGraph, impactTree, lineageOf, neighbourhood, LAYERS, type CatalogGraph, type CatalogNode } from './graph.js';
import { profileTable, type TableProfile } from './profile.js';
import { searchCatalog } from './search.js';
import type { CatalogStore } from './store.js';
import { listWarehouseTables } from './warehouse-tables.js';


/** model detail profiles an unprofiled relation on the fly only below this size (else POST .../profile) */
const AUTO_PROFILE_MAX_ROWS = 1_000_000;

const overview = (n: CatalogNode, g: CatalogGraph) => ({
  id: n.id,
  name: n.name,
  type: n.kind === 'raw' ? 'source' : 'model',
  kind: n.kind,
  layer: n.layer,
  source: n.source,
  schema: n.schema,
  relation: n.relation,
  description: n.description,
  tags: n.tags,
  materialized: n.materialized,
  column_count: n.columns.length,
  estimated_rows: n.estimated_rows,
  in_warehouse: n.in_warehouse,
  tests_count: n.tests.length,
  dependencies: n.depends_on.map((d) => g.nodes.get(d)?.name ?? d),
  dependents_count: (g.children.get(n.id) ?? []).length,
});

/**
 * The catalog: warehouse metadata plus dbt's manifest/catalog, as one graph of raw tables and models
 * (SPEC "Catalog"). Everything is recomputed from the sources of truth on request; only column
 * profiles (expensive) and parse trees are cached.
 */
export class Catalog {
  private lineageCache = new Map<string, ColumnLineage[] | null>();

  constructor(
    /** the project's warehouse: tables, columns, profiles */
    private readonly client: WarehouseClient,
    /** the embedded DuckDB, only as a SQL parser for column lineage (json_serialize_sql touches no data) */
    private readonly warehouse: Warehouse,
    private readonly store: CatalogStore,
    private readonly artifacts: ArtifactReader,
    private readonly clock: Clock,
    private readonly governance: () => GovernanceView | undefined,
  ) {}

  async graph(): Promise<CatalogGraph> {
    // a server warehouse's schema_prefix: dbt's manifest names `<prefix>main`, the catalog `main`
    const prefix = this.client.readOnlyConnection()?.schemaName('') ?? '';
    const basinSchema = (s: string) => (prefix && s.startsWith(prefix) ? s.slice(prefix.length) : s);
    return buildGraph(this.artifacts.load(), await listWarehouseTables(this.client), basinSchema);
  }

  async models() {
    const g = await this.graph();
    return [...g.nodes.values()].sort((a, b) => LAYERS.indexOf(a.layer) - LAYERS.indexOf(b.layer) || a.name.localeCompare(b.name)).map((n) => overview(n, g));
  }

  private find(g: CatalogGraph, name: string): CatalogNode {
    const n = g.byName.get(name) ?? g.nodes.get(name);
    if (!n) throw errors.notFound(`Model "${name}"`, { model: name });
    return n;
  }

  async model(name: string) {
    const g = await this.graph();
    const n = this.find(g, name);
    const profile = await this.profileForDetail(n);
    const brief = (id: string) => {
      const x = g.nodes.get(id)!;
      return { id, name: x.name, kind: x.kind, layer: x.layer };
    };
    return {
      ...overview(n, g),
      path: n.path,
      raw_sql: n.raw_sql,
      compiled_sql: n.compiled_sql,
      columns: n.columns.map((c) => ({ ...c, profile: profile?.columns.find((p) => p.name === c.name) ?? null })),
      profiled_at: profile?.profiled_at ?? null,
      tests: n.tests,
      dependencies: n.depends_on.map(brief),
      dependents: (g.children.get(n.id) ?? []).map(brief),
      lineage: lineageOf(g, neighbourhood(g, n.id)),
      column_lineage: await this.columnLineage(g, n),
    };
  }

  /**
   * Model detail shows profiling stats (SPEC "Catalog and monitoring objects"): the cached profile, or
   * a fresh one computed once when none exists and the relation is small enough to scan on a request.
   */
  private async profileForDetail(n: CatalogNode): Promise<TableProfile | null> {
    if (!n.schema || !n.relation) return null;
    const cached = this.store.profile(n.schema, n.relation);
    if (cached || !n.in_warehouse || (n.estimated_rows ?? 0) > AUTO_PROFILE_MAX_ROWS) return cached;
    try {
      const p = await profileTable(this.client, n.schema, n.relation, this.clock.now());
      if (p) this.store.saveProfile(p);
      return p;
    } catch {
      return null; // e.g. a view whose upstream changed; the detail is still useful without stats
    }
  }

  /** beyond SPEC: per output column, the upstream columns it reads (from the compiled SQL's parse tree) */
  private async columnLineage(g: CatalogGraph, n: CatalogNode) {
    if (!n.compiled_sql) return null;
    const key = crypto.createHash('sha256').update(n.id).update('\0').update(n.compiled_sql).update(JSON.stringify(n.depends_on)).digest('hex');
    if (!this.lineageCache.has(key)) {
      let tree: unknown = null;
      try {
        const rows = await this.warehouse.query<{ j: string }>('SELECT json_serialize_sql($sql::VARCHAR) AS j', { sql: n.compiled_sql });
        tree = JSON.parse(rows[0]!.j);
      } catch {
        tree = null;
      }
      const upstream = n.depends_on.map((d) => g.nodes.get(d)!).filter(Boolean);
      const resolve = (schema: string, table: string) => {
        const hit = upstream.find((u) => u.relation?.toLowerCase() === table.toLowerCase() && (!schema || u.schema?.toLowerCase() === schema.toLowerCase()));
        return hit ? { node: hit.id, columns: hit.columns.length ? hit.columns.map((c) => c.name) : null } : null;
      };
      if (this.lineageCache.size > 500) this.lineageCache.clear();
      this.lineageCache.set(key, columnLineageFromParseTree(tree, resolve));
    }
    const columns = this.lineageCache.get(key);
    if (!columns) return null;
    return {
      beyond_spec: true,
      method: 'duckdb_parse_tree',
      columns: columns.map((c) => ({ column: c.column, sources: c.sources.map((s) => ({ ...s, name: g.nodes.get(s.node)?.name ?? s.node })) })),
    };
  }

  async lineage() {
    const g = await this.graph();
    return { layers: LAYERS, ...lineageOf(g) };
  }

  async impact(name: string) {
    const g = await this.graph();
    const n = this.find(g, name);
    const { tree, total } = impactTree(g, n.id);
    return { model: n.name, id: n.id, total, downstream: tree };
  }

  async search(q: string) {
    return searchCatalog(await this.graph(), q);
  }

  /** `{source}/{table}` → the warehouse relation: a dbt source's table, `raw_<source>.<table>`, or `<source>.<table>` */
  async resolveTable(source: string, table: string): Promise<{ schema: string; table: string; node: CatalogNode | null }> {
    const g = await this.graph();
    const candidates: Array<[string, string]> = [];
    for (const n of g.nodes.values()) if (n.kind === 'raw' && n.source === source && (n.name === `${source}.${table}` || n.relation === table) && n.schema && n.relation) candidates.push([n.schema, n.relation]);
    candidates.push([`raw_${source}`, table], [source, table]);
    for (const [schema, rel] of candidates) {
      if ((await this.client.describeTable(schema, rel)) !== null) {
        const node = [...g.nodes.values()].find((x) => x.schema === schema && x.relation === rel) ?? null;
        return { schema, table: rel, node };
      }
    }
    throw errors.notFound(`Table "${table}" of source "${source}"`, { source, table });
  }

  async columns(source: string, table: string) {
    const t = await this.resolveTable(source, table);
    const profile = this.store.profile(t.schema, t.table);
    const cols = t.node?.columns ?? [];
    return {
      source,
      table,
      schema: t.schema,
      relation: t.table,
      columns: cols.map((c) => ({ ...c, profile: profile?.columns.find((p) => p.name === c.name) ?? null })),
      row_count: profile?.row_count ?? null,
      profiled_at: profile?.profiled_at ?? null,
    };
  }

  async profile(source: string, table: string): Promise<TableProfile & { source: string }> {
    const t = await this.resolveTable(source, table);
    const p = await profileTable(this.client, t.schema, t.table, this.clock.now());
    if (!p) throw errors.notFound(`Table "${table}" of source "${source}"`, { source, table });
    this.store.saveProfile(p);
    return { source, ...p };
  }

  recordSync(source: string, rows: number | null, syncId: string | null): void {
    this.store.recordSync(source, this.clock.now().toISOString(), rows, syncId);
  }

  /**
   * A machine-readable summary for agents. Without governance.view it is reduced to what source.view
   * already shows elsewhere: sources, tables, row counts and freshness; no column schemas, models or
   * quality signals.
   */
  async summary(full: boolean, project: { name?: string; purpose?: string | null }) {
    const g = await this.graph();
    const fresh = this.store.freshness();
    const gov = this.governance();
    const attention = full && gov ? await gov.attentionSources() : new Set<string>();
    const raw = [...g.nodes.values()].filter((n) => n.kind === 'raw');
    const sourceNames = [...new Set([...raw.map((n) => n.source!), ...fresh.keys()])].sort();
    const sources = sourceNames.map((s) => {
      const f = fresh.get(s) ?? null;
      return {
        name: s,
        freshness: f ? { last_synced_at: f.last_synced_at, age_hours: Math.round(((this.clock.now().getTime() - Date.parse(f.last_synced_at)) / 3_600_000) * 10) / 10, rows_last_sync: f.rows } : null,
        ...(full ? { needs_attention: attention.has(s) } : {}),
        tables: raw
          .filter((n) => n.source === s)
          .map((n) => ({ name: n.relation, schema: n.schema, estimated_rows: n.estimated_rows, ...(full ? { description: n.description, columns: n.columns.map((c) => ({ name: c.name, type: c.type, description: c.description })) } : {}) })),
      };
    });
    const base = { generated_at: this.clock.now().toISOString(), project: { name: project.name ?? null, purpose: project.purpose ?? null }, reduced: !full, sources };
    if (!full) return base;
    const models = [...g.nodes.values()].filter((n) => n.kind !== 'raw');
    const tests = models.flatMap((m) => m.tests);
    const pii = gov?.piiFindings?.({}) ?? [];
    return {
      ...base,
      models: models.map((m) => ({
        name: m.name,
        layer: m.layer,
        schema: m.schema,
        relation: m.relation,
        description: m.description,
        depends_on: m.depends_on.map((d) => g.nodes.get(d)?.name ?? d),
        columns: m.columns.map((c) => ({ name: c.name, type: c.type, description: c.description, tests: c.tests })),
      })),
      quality: {
        attention: gov?.attention?.() ?? [...attention].map((source) => ({ source, reasons: ['schema_drift'] })),
        pii_columns: pii.map((p) => ({ source: p.source, table: p.table, column: p.column, entity_type: p.entity_type })),
        tests: { total: tests.length, passed: tests.filter((t) => t.status === 'pass').length, failed: tests.filter((t) => t.status === 'fail' || t.status === 'error').length, not_run: tests.filter((t) => !t.status).length },
      },
    };
  }
}
