import type pg from 'pg';
import { SourceError, type ReadItem, type SourceContext } from '@basin/sdk';
import { DELETED_COLUMN, LSN_COLUMN, type ReplTable } from './catalog.js';
import type { PgReplicationConfig } from './config.js';
import { quoteIdent } from './ident.js';
import { lsnNumber } from './lsn.js';
import { duckdbType } from './type-map.js';

/**
 * The initial copy: every table read in the snapshot the slot exported when it was created, so
 * the rows are exactly the state before the slot's first change. Each row carries the slot's
 * consistent point minus one as its LSN: the first change's record may start right at that point,
 * and any change of the key must win over the snapshot row.
 */
export async function* readSnapshot(ctx: SourceContext<PgReplicationConfig>, sql: pg.Client, snapshot: string, at: bigint, tables: ReplTable[]): AsyncGenerator<ReadItem> {
  await sql.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  await sql.query(`SET TRANSACTION SNAPSHOT '${snapshot.replace(/'/g, "''")}'`);
  const lsn = lsnNumber(at - 1n);
  const size = ctx.config.chunk_size;
  for (const t of tables) {
    const decimals = t.columns.filter((c) => duckdbType(c).startsWith('DECIMAL')).map((c) => c.name);
    const cols = t.columns.map((c) => quoteIdent(c.name)).join(', ');
    await sql.query(`DECLARE basin_snapshot NO SCROLL CURSOR FOR SELECT ${cols} FROM ${quoteIdent(ctx.config.schema)}.${quoteIdent(t.name)}`);
    let rows = 0;
    for (;;) {
      if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
      const batch = (await sql.query(`FETCH FORWARD ${size} FROM basin_snapshot`)).rows as Record<string, unknown>[];
      if (!batch.length) break;
      for (const row of batch) {
        row[LSN_COLUMN] = lsn;
        row[DELETED_COLUMN] = false;
        // numeric NaN/Infinity has no DECIMAL value
        for (const k of decimals) if (row[k] === 'NaN' || (typeof row[k] === 'string' && (row[k] as string).endsWith('Infinity'))) row[k] = null;
      }
      rows += batch.length;
      yield { kind: 'records', resource: t.resource, records: batch };
      if (batch.length < size) break;
    }
    await sql.query('CLOSE basin_snapshot');
    ctx.log.info(`${ctx.config.schema}.${t.name}: ${rows} row(s) in the initial snapshot`);
  }
  await sql.query('COMMIT');
}
