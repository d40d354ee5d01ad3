import { SourceError, type ReadItem, type ResourceSpec, type SourceContext } from '@basin/sdk';
import { selectTables, type DbTable } from './catalog.js';
import type { SqlDatabaseConfig } from './config.js';
import { openSession } from './open.js';
import type { DbSession } from './session.js';
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
export function buildQuery(db: DbSession, t: DbTable, state: CursorState | undefined, lookbackDays: number | undefined): Query {
  const cols = t.columns.map((c) => db.quote(c.name)).join(', ');
  const from = `${db.quote(db.namespace)}.${db.quote(t.name)}`;
  const c = t.cursor;
  if (!c) return { sql: `SELECT ${cols} FROM ${from}`, params: [] };
  const col = db.quote(c.column);
  if (state) {
    if (lookbackDays && DATE_CURSOR_TYPES.has(c.typname)) {
      return { sql: `SELECT ${cols} FROM ${from} WHERE ${db.afterLookback(col, c.typname, db.param(1), db.param(2))}`, params: [state.last_value, lookbackDays] };
    }
    return { sql: `SELECT ${cols} FROM ${from} WHERE ${col} > ${db.param(1)}`, params: [state.last_value] };
  }
  if (c.initialValue !== undefined) return { sql: `SELECT ${cols} FROM ${from} WHERE ${col} >= ${db.param(1)}`, params: [c.initialValue] };
  return { sql: `SELECT ${cols} FROM ${from}`, params: [] };
}

/** numeric NaN/Infinity has no DECIMAL value: loaded as NULL (with one warning per column) */
function decimalFixer(t: DbTable, ctx: SourceContext<SqlDatabaseConfig>): ((row: Record<string, unknown>) => void) | null {
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
 * Streams every requested table inside one read-only snapshot transaction (PostgreSQL REPEATABLE
 * READ, MySQL/MariaDB WITH CONSISTENT SNAPSHOT, SQLite one read transaction), so all tables come from
 * one snapshot and the cursor maximum read in that snapshot is exactly the last value of the rows read.
 */
export async function* readTables(
  ctx: SourceContext<SqlDatabaseConfig>,
  resources: ResourceSpec[],
  state: Record<string, Record<string, unknown>>,
): AsyncGenerator<ReadItem> {
  const cfg = ctx.config;
  const db = await openSession(ctx);
  const onAbort = () => void db.close();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await db.beginSnapshot();
    const tables = selectTables(cfg, await db.catalog(), db.place);
    const wanted = new Set(resources.map((r) => r.name));
    for (const t of tables) {
      if (!wanted.has(t.resource)) continue;
      yield* readTable(db, ctx, t, previous(state[t.resource], t, ctx));
    }
    await db.commit();
  } catch (e) {
    if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
    throw e;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await db.close();
  }
}

function previous(s: Record<string, unknown> | undefined, t: DbTable, ctx: SourceContext<SqlDatabaseConfig>): CursorState | undefined {
  if (!t.cursor || !s || ctx.options.fullRefresh || s.last_value === undefined || s.last_value === null) return undefined;
  if (s.cursor_column !== t.cursor.column) {
    ctx.log.warn(`${t.name}: the cursor column changed from ${String(s.cursor_column)} to ${t.cursor.column}; reading the whole table again`);
    return undefined;
  }
  return { cursor_column: t.cursor.column, last_value: s.last_value as CursorState['last_value'] };
}

async function* readTable(db: DbSession, ctx: SourceContext<SqlDatabaseConfig>, t: DbTable, prev: CursorState | undefined): AsyncGenerator<ReadItem> {
  const q = buildQuery(db, t, prev, ctx.options.lookbackDays);
  let max: unknown = null;
  if (t.cursor) {
    // same snapshot as the rows: everything read is <= this maximum, everything later is >
    max = await db.scalar(`SELECT max(${db.quote(t.cursor.column)}) AS m FROM (${q.sql}) AS q`, q.params);
  }
  const fix = decimalFixer(t, ctx);
  let rows = 0;
  for await (const batch of db.batches(q.sql, q.params, ctx.config.chunk_size, ctx.signal)) {
    if (fix) for (const row of batch) fix(row);
    rows += batch.length;
    yield { kind: 'records', resource: t.resource, records: batch };
  }
  ctx.log.info(`${db.namespace}.${t.name}: ${rows} row(s) read${prev ? ` after ${t.cursor!.column} = ${String(prev.last_value)}` : ''}`);
  if (t.cursor && max !== null && max !== undefined) {
    const value = typeof max === 'number' ? max : String(max);
    yield { kind: 'state', resource: t.resource, state: { cursor_column: t.cursor.column, last_value: value } satisfies CursorState };
  }
}
