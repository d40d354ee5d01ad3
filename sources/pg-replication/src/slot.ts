import type pg from 'pg';
import { SourceError } from '@basin/sdk';
import type { ReplTable } from './catalog.js';
import { quoteIdent } from './ident.js';
import { lsnToBigint } from './lsn.js';

/** the comment that marks a publication as Basin's own (created, altered and dropped by Basin) */
const marker = (source: string) => `basin pg_replication source ${source}`;

interface PublicationRow {
  comment: string | null;
}

/**
 * The publication the slot streams: created FOR TABLE the replicated tables when missing (marked
 * as Basin's by a comment, and kept in step with `tables` afterwards). A publication that existed
 * before is the user's: used as it is, checked to publish every table, never altered.
 */
export async function ensurePublication(sql: pg.Client, name: string, schema: string, tables: ReplTable[], source: string, serverVersion: number): Promise<void> {
  const list = tables.map((t) => `${quoteIdent(schema)}.${quoteIdent(t.name)}`).join(', ');
  const found = await sql.query<PublicationRow>("SELECT obj_description(oid, 'pg_publication') AS comment FROM pg_publication WHERE pubname = $1", [name]);
  if (!found.rowCount) {
    // changes of a partitioned table's partitions are published under the table itself (PostgreSQL 13+)
    await sql.query(`CREATE PUBLICATION ${quoteIdent(name)} FOR TABLE ${list}${serverVersion >= 130000 ? ' WITH (publish_via_partition_root = true)' : ''}`);
    await sql.query(`COMMENT ON PUBLICATION ${quoteIdent(name)} IS '${marker(source).replace(/'/g, "''")}'`);
    return;
  }
  const published = await sql.query<{ tablename: string }>('SELECT tablename FROM pg_publication_tables WHERE pubname = $1 AND schemaname = $2', [name, schema]);
  const have = new Set(published.rows.map((r) => r.tablename));
  const missing = tables.filter((t) => !have.has(t.name)).map((t) => t.name);
  if (!missing.length) return;
  if (found.rows[0]!.comment === marker(source)) {
    await sql.query(`ALTER PUBLICATION ${quoteIdent(name)} SET TABLE ${list}`);
    return;
  }
  throw new SourceError(
    'config_invalid',
    `Publication "${name}" exists but does not publish ${missing.map((m) => `"${m}"`).join(', ')}; run ALTER PUBLICATION ${quoteIdent(name)} ADD TABLE ${missing.map((m) => `${quoteIdent(schema)}.${quoteIdent(m)}`).join(', ')}, or name another publication.`,
    { publication: name, missing },
  );
}

/** drops the publication if it is Basin's own; returns whether it did */
export async function dropPublication(sql: pg.Client, name: string, source: string): Promise<boolean> {
  const found = await sql.query<PublicationRow>("SELECT obj_description(oid, 'pg_publication') AS comment FROM pg_publication WHERE pubname = $1", [name]);
  if (!found.rowCount || found.rows[0]!.comment !== marker(source)) return false;
  await sql.query(`DROP PUBLICATION ${quoteIdent(name)}`);
  return true;
}

export interface SlotRow {
  plugin: string | null;
  database: string | null;
  active: boolean;
  active_pid: number | null;
  confirmed_flush_lsn: string | null;
}

export async function slotInfo(sql: pg.Client, slot: string): Promise<SlotRow | null> {
  const r = await sql.query<SlotRow>('SELECT plugin, database, active, active_pid, confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = $1', [slot]);
  return r.rows[0] ?? null;
}

/** drops the slot (it must not be streaming to another process); returns whether it existed */
export async function dropSlot(sql: pg.Client, slot: string): Promise<boolean> {
  const info = await slotInfo(sql, slot);
  if (!info) return false;
  if (info.active) {
    throw new SourceError('slot_in_use', `Replication slot "${slot}" is in use by server process ${info.active_pid}; stop the other consumer (or another sync of this source) first.`, { slot });
  }
  await sql.query('SELECT pg_drop_replication_slot($1)', [slot]);
  return true;
}

export interface NewSlot {
  /** the LSN from which the slot streams: the snapshot holds everything committed before it */
  consistentPoint: bigint;
  /** the exported snapshot, valid while the replication session that made it stays open and idle */
  snapshot: string;
}

/** Creates a pgoutput slot on a replication session, exporting its consistent snapshot. */
export async function createSlot(repl: pg.Client, slot: string, serverVersion: number): Promise<NewSlot> {
  const sql = serverVersion >= 150000 ? `CREATE_REPLICATION_SLOT ${quoteIdent(slot)} LOGICAL pgoutput (SNAPSHOT 'export')` : `CREATE_REPLICATION_SLOT ${quoteIdent(slot)} LOGICAL pgoutput EXPORT_SNAPSHOT`;
  const r = await repl.query<{ consistent_point: string; snapshot_name: string }>(sql);
  const row = r.rows[0]!;
  return { consistentPoint: lsnToBigint(row.consistent_point), snapshot: row.snapshot_name };
}
