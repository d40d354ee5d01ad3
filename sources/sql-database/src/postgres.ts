import type pg from 'pg';
import { SourceError, type SourceContext } from '@basin/sdk';
import type { DbTable } from './catalog.js';
import type { SqlDatabaseConfig } from './config.js';
import { connect } from './connect.js';
import { quoteIdent, resourceName } from './ident.js';
import type { DbSession } from './session.js';

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
export async function readCatalog(client: pg.Client, schema: string): Promise<Map<string, DbTable>> {
  const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (!exists.rowCount) throw new SourceError('not_found', `Schema "${schema}" does not exist in this database.`, { schema });
  const tables = new Map<string, DbTable>();
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

/** PostgreSQL: one REPEATABLE READ transaction, rows through a server-side cursor (DECLARE/FETCH). */
export async function openPostgres(ctx: SourceContext<SqlDatabaseConfig>): Promise<DbSession> {
  const client = await connect(ctx);
  const schema = ctx.config.schema;
  return {
    label: 'PostgreSQL',
    namespace: schema,
    place: `schema "${schema}"`,
    async version() {
      return (await client.query('SHOW server_version')).rows[0].server_version as string;
    },
    catalog: () => readCatalog(client, schema),
    async beginSnapshot() {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    },
    async commit() {
      await client.query('COMMIT');
    },
    quote: quoteIdent,
    param: (n) => `$${n}`,
    // the type name is one of three constants, never user input
    afterLookback: (col, typname, v, d) => `${col} > (${v}::${typname} - make_interval(days => ${d}::int))`,
    async scalar(sql, params) {
      const r = await client.query(sql, params);
      return r.rows[0] ? Object.values(r.rows[0])[0] : null;
    },
    async *batches(sql, params, size, signal) {
      await client.query(`DECLARE basin_read NO SCROLL CURSOR FOR ${sql}`, params);
      for (;;) {
        if (signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
        const batch = await client.query(`FETCH FORWARD ${size} FROM basin_read`);
        if (!batch.rows.length) break;
        yield batch.rows;
        if (batch.rows.length < size) break;
      }
      await client.query('CLOSE basin_read');
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}
