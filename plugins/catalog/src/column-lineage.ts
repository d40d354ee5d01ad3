/**
 * Column-level lineage (beyond SPEC) from dbt's compiled SQL, using DuckDB's own parser
 * (`json_serialize_sql`) rather than regular expressions. It follows CTEs, subqueries, joins with
 * aliases, `*` / `alias.*` (expanded from the upstream columns Basin knows) and UNION (by position).
 * Each output column lists the upstream (node, column) pairs its expression reads. Columns whose
 * origin cannot be determined (unknown `*`, computed without column references) get no sources.
 */
export interface ColumnOrigin {
  node: string;
  column: string;
}
export interface ColumnLineage {
  column: string;
  sources: ColumnOrigin[];
}
export type BaseResolver = (schema: string, table: string) => { node: string; columns: string[] | null } | null;

interface Derived {
  order: string[];
  map: Map<string, ColumnOrigin[]>;
}
type Rel = { kind: 'base'; node: string; columns: string[] | null } | { kind: 'derived'; rel: Derived } | { kind: 'unknown' };

const lc = (s: string) => s.toLowerCase();

function collectColumnRefs(expr: unknown, out: string[][] = []): string[][] {
  if (!expr || typeof expr !== 'object') return out;
  if (Array.isArray(expr)) {
    for (const e of expr) collectColumnRefs(e, out);
    return out;
  }
  const o = expr as Record<string, unknown>;
  if (o.class === 'COLUMN_REF' && Array.isArray(o.column_names)) {
    out.push(o.column_names as string[]);
    return out;
  }
  if (o.class === 'SUBQUERY') return out; // correlated subqueries are out of scope
  for (const v of Object.values(o)) if (v && typeof v === 'object') collectColumnRefs(v, out);
  return out;
}

function dedupe(origins: ColumnOrigin[]): ColumnOrigin[] {
  const seen = new Set<string>();
  return origins.filter((o) => {
    const k = `${o.node}\u0000${lc(o.column)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function originsOf(rel: Rel, column: string): ColumnOrigin[] | null {
  if (rel.kind === 'base') {
    if (rel.columns && !rel.columns.some((c) => lc(c) === lc(column))) return null;
    const exact = rel.columns?.find((c) => lc(c) === lc(column)) ?? column;
    return [{ node: rel.node, column: exact }];
  }
  if (rel.kind === 'derived') {
    for (const [k, v] of rel.rel.map) if (lc(k) === lc(column)) return v;
    return null;
  }
  return null;
}

function resolveQuery(node: any, ctes: Map<string, Derived>, resolveBase: BaseResolver): Derived {
  const scoped = new Map(ctes);
  for (const entry of node?.cte_map?.map ?? []) {
    const q = entry?.value?.query?.node;
    if (q) scoped.set(lc(entry.key), resolveQuery(q, scoped, resolveBase));
  }
  if (node?.type === 'SET_OPERATION_NODE') {
    const left = resolveQuery(node.left, scoped, resolveBase);
    const right = resolveQuery(node.right, scoped, resolveBase);
    const map = new Map<string, ColumnOrigin[]>();
    left.order.forEach((name, i) => map.set(name, dedupe([...(left.map.get(name) ?? []), ...(right.map.get(right.order[i] ?? '') ?? [])])));
    return { order: left.order, map };
  }
  if (node?.type !== 'SELECT_NODE') return { order: [], map: new Map() };

  const scope: Array<[string, Rel]> = [];
  const addFrom = (t: any): void => {
    if (!t) return;
    if (t.type === 'JOIN') {
      addFrom(t.left);
      addFrom(t.right);
    } else if (t.type === 'BASE_TABLE') {
      const alias = lc(t.alias || t.table_name);
      const cte = !t.schema_name ? scoped.get(lc(t.table_name)) : undefined;
      const base = cte ? null : resolveBase(t.schema_name ?? '', t.table_name);
      scope.push([alias, cte ? { kind: 'derived', rel: cte } : base ? { kind: 'base', node: base.node, columns: base.columns } : { kind: 'unknown' }]);
    } else if (t.type === 'SUBQUERY') {
      const q = t.subquery?.node;
      scope.push([lc(t.alias || ''), q ? { kind: 'derived', rel: resolveQuery(q, scoped, resolveBase) } : { kind: 'unknown' }]);
    }
  };
  addFrom(node.from_table);

  const order: string[] = [];
  const map = new Map<string, ColumnOrigin[]>();
  const put = (name: string, origins: ColumnOrigin[]) => {
    if (!map.has(name)) order.push(name);
    map.set(name, dedupe(origins));
  };
  const lookup = (names: string[]): ColumnOrigin[] => {
    const col = names[names.length - 1]!;
    if (names.length >= 2) {
      const rel = scope.find(([a]) => a === lc(names[names.length - 2]!))?.[1];
      return (rel && originsOf(rel, col)) ?? [];
    }
    for (const [, rel] of scope) {
      const o = originsOf(rel, col);
      if (o) return o;
    }
    return [];
  };

  for (const expr of node.select_list ?? []) {
    if (expr.class === 'STAR') {
      const excluded = new Set(((expr.exclude_list ?? []) as unknown[]).map((e) => lc(typeof e === 'string' ? e : String((e as any)?.column_names?.slice(-1)[0] ?? ''))));
      const rels = expr.relation_name ? scope.filter(([a]) => a === lc(expr.relation_name)) : scope;
      for (const [, rel] of rels) {
        if (rel.kind === 'derived') for (const name of rel.rel.order) !excluded.has(lc(name)) && put(name, rel.rel.map.get(name) ?? []);
        else if (rel.kind === 'base' && rel.columns) for (const c of rel.columns) !excluded.has(lc(c)) && put(c, [{ node: rel.node, column: c }]);
      }
      continue;
    }
    const name = expr.alias || (expr.class === 'COLUMN_REF' ? expr.column_names[expr.column_names.length - 1] : null);
    if (!name) continue;
    put(name, collectColumnRefs(expr).flatMap(lookup));
  }
  return { order, map };
}

/** Lineage of every output column of one parsed statement (the JSON from `json_serialize_sql`). */
export function columnLineageFromParseTree(tree: any, resolveBase: BaseResolver): ColumnLineage[] | null {
  if (!tree || tree.error || !Array.isArray(tree.statements) || tree.statements.length !== 1) return null;
  const d = resolveQuery(tree.statements[0].node, new Map(), resolveBase);
  return d.order.map((column) => ({ column, sources: d.map.get(column) ?? [] }));
}
