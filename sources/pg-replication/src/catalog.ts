import type pg from 'pg';
import { SourceError, type ResourceSpec } from '@basin/sdk';
import type { PgReplicationConfig } from './config.js';
import { resourceName } from './ident.js';
import { duckdbType, type PgColumn } from './type-map.js';

export interface ReplTable {
  /** the table's name in the source database (exact, case-sensitive) */
  name: string;
  /** the warehouse resource it loads into */
  resource: string;
  columns: PgColumn[];
  primaryKey: string[];
}

/** the change's log position: the latest of several changes of a key wins */
export const LSN_COLUMN = '_basin_lsn';
/** true on a row deleted at the source (deletes: flag); the engine's delete marker with deletes: remove */
export const DELETED_COLUMN = '_basin_deleted';

// ordinary and partitioned tables only: views and foreign tables have no change stream
const COLUMNS_SQL = `
SELECT c.relname AS table, a.attname AS name, bt.typname AS typname, et.typname AS elem,
       format_type(bt.oid, CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END) AS formatted, a.attnotnull AS not_null
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
LEFT JOIN pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A'
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
ORDER BY c.relname, a.attnum`;

const PK_SQL = `
SELECT c.relname AS table, a.attname AS name
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)
WHERE n.nspname = $1 AND i.indisprimary
ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)`;

/** Every table of the schema with its columns and primary key. */
export async function readCatalog(client: pg.Client, schema: string): Promise<Map<string, ReplTable>> {
  const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (!exists.rowCount) throw new SourceError('not_found', `Schema "${schema}" does not exist in this database.`, { schema });
  const tables = new Map<string, ReplTable>();
  for (const r of (await client.query(COLUMNS_SQL, [schema])).rows) {
    let t = tables.get(r.table);
    if (!t) tables.set(r.table, (t = { name: r.table, resource: resourceName(r.table), columns: [], primaryKey: [] }));
    t.columns.push({ name: r.name, typname: r.typname, elem: r.elem, formatted: r.formatted, notNull: r.not_null });
  }
  for (const r of (await client.query(PK_SQL, [schema])).rows) tables.get(r.table)?.primaryKey.push(r.name);
  return tables;
}

/**
 * The tables a source replicates: the config's `tables` (each must exist and have a primary key,
 * the merge key of its changes) or every table of the schema that has one.
 */
export function selectTables(cfg: PgReplicationConfig, all: Map<string, ReplTable>): { tables: ReplTable[]; skipped: string[] } {
  if (!cfg.tables.length) {
    const tables = [...all.values()].filter((t) => t.primaryKey.length);
    return { tables, skipped: [...all.values()].filter((t) => !t.primaryKey.length).map((t) => t.name) };
  }
  const tables = cfg.tables.map((n) => {
    const t = all.get(n);
    if (!t) {
      const ci = [...all.keys()].find((k) => k.toLowerCase() === n.toLowerCase());
      const hint = ci ? ` Did you mean "${ci}"? (names are case-sensitive)` : ` Tables there: ${[...all.keys()].slice(0, 20).join(', ') || 'none'}.`;
      throw new SourceError('not_found', `Table "${n}" was not found in schema "${cfg.schema}".${hint}`, { table: n });
    }
    if (!t.primaryKey.length) throw new SourceError('config_invalid', `Table "${n}" has no primary key, which pg_replication merges changes on; add one or leave the table out of tables.`, { table: n });
    return t;
  });
  const seen = new Map<string, string>();
  for (const t of tables) {
    const other = seen.get(t.resource);
    if (other !== undefined) throw new SourceError('config_invalid', `Tables "${other}" and "${t.name}" would both load into ${t.resource}; list only one of them in tables.`);
    seen.set(t.resource, t.name);
  }
  return { tables, skipped: [] };
}

/** A table's resource: its typed columns, the change's LSN, the delete flag, merged on the primary key. */
export function toResource(t: ReplTable, cfg: PgReplicationConfig): ResourceSpec {
  return {
    name: t.resource,
    columns: [
      ...t.columns.map((c) => ({ name: c.name, type: duckdbType(c), nullable: !c.notNull })),
      { name: LSN_COLUMN, type: 'BIGINT', nullable: false },
      { name: DELETED_COLUMN, type: 'BOOLEAN', nullable: false },
    ],
    primaryKey: t.primaryKey,
    cursorField: LSN_COLUMN,
    writeDisposition: 'merge',
    latestBy: LSN_COLUMN,
    ...(cfg.deletes === 'remove' ? { deleteFlag: DELETED_COLUMN } : {}),
    description: `PostgreSQL table ${cfg.schema}.${t.name} (logical replication)`,
  };
}
