import type pg from 'pg';
import { SourceError, type ReadItem, type ResourceSpec, type SourceContext } from '@basin/sdk';
import { readCatalog, selectTables, type PgTable } from './catalog.js';
import type { SqlDatabaseConfig } from './config.js';
import { connect } from './connect.js';
import { quoteIdent } from './ident.js';
import { DATE_CURSOR_TYPES, duckdbType } from './type-map.js';

/** Cursor state per resource, committed by the engine together with the rows read before it. */
export interface CursorState {
  cursor_column: string;
  last_value: string | number;
}

interface Query {
  sql: string;
  params: unknown[];
}

/** The SELECT for one table: identifiers quoted from the catalog, values bound. */
export function buildQuery(schema: string, t: PgTable, state: CursorState | undefined, lookbackDays: number | undefined): Query {
  const cols = t.columns.map((c) => quoteIdent(c.name)).join(', ');
  const from = `${quoteIdent(schema)}.${quoteIdent(t.name)}`;
  const c = t.cursor;
  if (!c) return { sql: `SELECT ${cols} FROM ${from}`, params: [] };
  const col = quoteIdent(c.column);
  if (state) {
    // the type name is one of three constants, never user input
    if (lookbackDays && DATE_CURSOR_TYPES.has(c.typname)) {
      return { sql: `SELECT ${cols} FROM ${from} WHERE ${col} > ($1::${c.typname} - make_interval(days => $2::int))`, params: [state.last_value, lookbackDays] };
    }
    return { sql: `SELECT ${cols} FROM ${from} WHERE ${col} > $1`, params: [state.last_value] };
  }
  if (c.initialValue !== undefined) return { sql: `SELECT ${cols} FROM ${from} WHERE ${col} >= $1`, params: [c.initialValue] };
  return { sql: `SELECT ${cols} FROM ${from}`, params: [] };
}

/** numeric NaN/Infinity has no DECIMAL value: loaded as NULL (with one warning per column) */
function decimalFixer(t: PgTable, ctx: SourceContext<SqlDatabaseConfig>): ((row: Record<string, unknown>) => void) | null {
  const cols = t.columns.filter((c) => duckdbType(c).startsWith('DECIMAL')).map((c) => c.name);
  if (!cols.length) return null;
  const warned = new Set<string>();
  return (row) => {
    for (const k of cols) {
      const v = row[k];
      if (typeof v === 'string' && (v === 'NaN' || v.endsWith('Infinity'))) {
        row[k] = null;
        if (!warned.has(k)) {
          warned.add(k);
          ctx.log.warn(`${t.name}.${k} holds ${v}, which a DECIMAL column cannot store; loaded as NULL`);
        }
      }
    }
  };
}

/**
 * Streams every requested table through a server-side cursor (DECLARE/FETCH) inside one read-only
 * REPEATABLE READ transaction, so all tables come from one snapshot and the cursor maximum read in
 * that snapshot is exactly the last value of the rows read.
 */
export async function* readTables(
  ctx: SourceContext<SqlDatabaseConfig>,
  resources: ResourceSpec[],
  state: Record<string, Record<string, unknown>>,
): AsyncGenerator<ReadItem> {
  const cfg = ctx.config;
  const client = await connect(ctx);
  const onAbort = () => void client.end().catch(() => undefined);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = selectTables(cfg, await readCatalog(client, cfg.schema));
    const wanted = new Set(resources.map((r) => r.name));
    for (const t of tables) {
      if (!wanted.has(t.resource)) continue;
      yield* readTable(client, ctx, t, previous(state[t.resource], t, ctx));
    }
    await client.query('COMMIT');
  } catch (e) {
    if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
    throw e;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await client.end().catch(() => undefined);
  }
}

function previous(s: Record<string, unknown> | undefined, t: PgTable, ctx: SourceContext<SqlDatabaseConfig>): CursorState | undefined {
  if (!t.cursor || !s || ctx.options.fullRefresh || s.last_value === undefined || s.last_value === null) return undefined;
  if (s.cursor_column !== t.cursor.column) {
    ctx.log.warn(`${t.name}: the cursor column changed from ${String(s.cursor_column)} to ${t.cursor.column}; reading the whole table again`);
    return undefined;
  }
  return { cursor_column: t.cursor.column, last_value: s.last_value as CursorState['last_value'] };
}

async function* readTable(client: pg.Client, ctx: SourceContext<SqlDatabaseConfig>, t: PgTable, prev: CursorState | undefined): AsyncGenerator<ReadItem> {
  const q = buildQuery(ctx.config.schema, t, prev, ctx.options.lookbackDays);
  let max: unknown = null;
  if (t.cursor) {
    // same snapshot as the rows: everything read is <= this maximum, everything later is >
    const r = await client.query(`SELECT max(${quoteIdent(t.cursor.column)}) AS m FROM (${q.sql}) AS q`, q.params);
    max = r.rows[0].m;
  }
  await client.query(`DECLARE basin_read NO SCROLL CURSOR FOR ${q.sql}`, q.params);
  const fix = decimalFixer(t, ctx);
  let rows = 0;
  for (;;) {
    if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
    const batch = await client.query(`FETCH FORWARD ${ctx.config.chunk_size} FROM basin_read`);
    if (!batch.rows.length) break;
    if (fix) for (const row of batch.rows) fix(row);
    rows += batch.rows.length;
    yield { kind: 'records', resource: t.resource, records: batch.rows };
    if (batch.rows.length < ctx.config.chunk_size) break;
  }
  await client.query('CLOSE basin_read');
  ctx.log.info(`${ctx.config.schema}.${t.name}: ${rows} row(s) read${prev ? ` after ${t.cursor!.column} = ${String(prev.last_value)}` : ''}`);
  if (t.cursor && max !== null && max !== undefined) {
    const value = typeof max === 'number' ? max : String(max);
    yield { kind: 'state', resource: t.resource, state: { cursor_column: t.cursor.column, last_value: value } satisfies CursorState };
  }
}
