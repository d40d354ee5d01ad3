import type pg from 'pg';
import { SourceError, type ResourceSpec } from '@basin/sdk';
import { cursorOf, type CursorSpec, type SqlDatabaseConfig } from './config.js';
import { resourceName } from './ident.js';
import { duckdbType, isCursorType, type PgColumn } from './type-map.js';

export interface PgTable {
  /** the table's name in PostgreSQL (exact, case-sensitive) */
  name: string;
  /** the warehouse resource it loads into */
  resource: string;
  kind: 'table' | 'view';
  columns: PgColumn[];
  primaryKey: string[];
  cursor?: CursorSpec & { typname: string };
}

// relkind: r table, p partitioned table, v view, m materialized view, f foreign table
const COLUMNS_SQL = `
SELECT c.relname AS table, c.relkind AS kind, a.attname AS name, bt.typname AS typname, et.typname AS elem,
       format_type(bt.oid, CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END) AS formatted, a.attnotnull AS not_null
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
LEFT JOIN pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A'
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
ORDER BY c.relname, a.attnum`;

const PK_SQL = `
SELECT c.relname AS table, a.attname AS name
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)
WHERE n.nspname = $1 AND i.indisprimary
ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)`;

/** Every table and view of the schema with its columns and primary key. */
export async function readCatalog(client: pg.Client, schema: string): Promise<Map<string, PgTable>> {
  const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (!exists.rowCount) throw new SourceError('not_found', `Schema "${schema}" does not exist in this database.`, { schema });
  const tables = new Map<string, PgTable>();
  for (const r of (await client.query(COLUMNS_SQL, [schema])).rows) {
    let t = tables.get(r.table);
    if (!t) {
      t = { name: r.table, resource: resourceName(r.table), kind: r.kind === 'r' || r.kind === 'p' ? 'table' : 'view', columns: [], primaryKey: [] };
      tables.set(r.table, t);
    }
    t.columns.push({ name: r.name, typname: r.typname, elem: r.elem, formatted: r.formatted, notNull: r.not_null });
  }
  for (const r of (await client.query(PK_SQL, [schema])).rows) tables.get(r.table)?.primaryKey.push(r.name);
  return tables;
}

function notFound(name: string, schema: string, all: Map<string, PgTable>): SourceError {
  const ci = [...all.keys()].find((k) => k.toLowerCase() === name.toLowerCase());
  const hint = ci ? ` Did you mean "${ci}"? (names are case-sensitive)` : ` Tables there: ${[...all.keys()].slice(0, 20).join(', ') || 'none'}.`;
  return new SourceError('not_found', `Table "${name}" was not found in schema "${schema}".${hint}`, { table: name, schema });
}

/**
 * The tables a sync reads: the config's `tables` (tables or views, by exact name) or every table of
 * the schema. Names only ever come from the catalog, so a name that is not a real table is refused
 * before any SQL is built with it.
 */
export function selectTables(cfg: SqlDatabaseConfig, all: Map<string, PgTable>): PgTable[] {
  for (const name of Object.keys(cfg.incremental)) {
    if (!all.has(name)) throw notFound(name, cfg.schema, all);
    if (cfg.tables.length && !cfg.tables.includes(name)) {
      throw new SourceError('config_invalid', `incremental names table "${name}", which is not in tables.`, { table: name });
    }
  }
  const pick = (n: string): PgTable => {
    const t = all.get(n);
    if (!t) throw notFound(n, cfg.schema, all);
    return t;
  };
  const picked = cfg.tables.length ? cfg.tables.map(pick) : [...all.values()].filter((t) => t.kind === 'table');
  const byResource = new Map<string, string>();
  for (const t of picked) {
    const other = byResource.get(t.resource);
    if (other !== undefined) throw new SourceError('config_invalid', `Tables "${other}" and "${t.name}" would both load into ${t.resource}; list only one of them in tables.`);
    byResource.set(t.resource, t.name);
    const cur = cursorOf(cfg, t.name);
    if (cur) {
      const col = t.columns.find((c) => c.name === cur.column);
      if (!col) throw new SourceError('config_invalid', `Cursor column "${cur.column}" does not exist in table "${t.name}" (columns: ${t.columns.map((c) => c.name).join(', ')}).`, { table: t.name });
      if (!isCursorType(col.typname)) throw new SourceError('config_invalid', `Column "${cur.column}" of "${t.name}" has type ${col.formatted}, which cannot serve as an incremental cursor (use an integer, numeric, date, timestamp or text column).`, { table: t.name });
      t.cursor = { ...cur, typname: col.typname };
    }
  }
  return picked;
}

/** What the engine loads: typed columns, key, and replace for full tables / merge or append for incremental ones. */
export function toResource(t: PgTable, schema: string): ResourceSpec {
  return {
    name: t.resource,
    columns: t.columns.map((c) => ({ name: c.name, type: duckdbType(c), nullable: !c.notNull })),
    ...(t.primaryKey.length ? { primaryKey: t.primaryKey } : {}),
    ...(t.cursor ? { cursorField: t.cursor.column } : {}),
    writeDisposition: t.cursor ? (t.primaryKey.length ? 'merge' : 'append') : 'replace',
    description: `PostgreSQL ${t.kind} ${schema}.${t.name}`,
  };
}
