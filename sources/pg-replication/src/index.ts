import type pg from 'pg';
import { defineSource, SourceError, type ReadItem, type ResourceSpec, type SourceContext } from '@basin/sdk';
import { readCatalog, selectTables, toResource, type ReplTable } from './catalog.js';
import { PgReplicationConfig, publicationName, slotName } from './config.js';
import { connect, describeError, resolveTarget } from './connect.js';
import { formatLsn, lsnToBigint } from './lsn.js';
import { createSlot, dropPublication, dropSlot, ensurePublication, slotInfo } from './slot.js';
import { readSnapshot } from './snapshot.js';
import { streamChanges, type StreamResult } from './stream.js';

export { PgReplicationConfig } from './config.js';

type Ctx = SourceContext<PgReplicationConfig>;

/** What a sync commits per resource with its rows: the slot and the position the next sync starts from. */
export interface ReplicationState {
  slot: string;
  lsn: string;
}

/** the server must decode logically, and the role must be allowed to replicate */
async function checkServer(sql: pg.Client, ctx: Ctx): Promise<{ version: string; versionNum: number }> {
  const t = resolveTarget(ctx);
  const r = (await sql.query("SELECT current_setting('wal_level') AS wal_level, current_setting('server_version') AS version, current_setting('server_version_num')::int AS num, (SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user) AS can_replicate")).rows[0];
  if (r.wal_level !== 'logical') {
    throw new SourceError('server_not_ready', `PostgreSQL at ${t.where} has wal_level = ${r.wal_level}; logical replication needs wal_level = logical in postgresql.conf (then restart the server).`, { wal_level: r.wal_level });
  }
  if (!r.can_replicate) {
    throw new SourceError('permission_denied', `The role "${t.user}" may not replicate; run ALTER ROLE ${t.user} REPLICATION as a superuser.`, { user: t.user });
  }
  return { version: r.version, versionNum: r.num };
}

async function tablesOf(sql: pg.Client, ctx: Ctx): Promise<{ tables: ReplTable[]; skipped: string[] }> {
  return selectTables(ctx.config, await readCatalog(sql, ctx.config.schema));
}

/** the committed position of this slot for the tables read, or null when they need a snapshot first */
function committedPosition(state: Record<string, Record<string, unknown>>, slot: string, tables: ReplTable[]): bigint | null {
  const saved = tables.map((t) => state[t.resource]).map((s) => (s && s.slot === slot && typeof s.lsn === 'string' ? lsnToBigint(s.lsn) : null));
  if (saved.every((s) => s === null)) return null;
  const missing = tables.filter((_, i) => saved[i] === null).map((t) => t.name);
  if (missing.length) {
    throw new SourceError('full_refresh_needed', `Table(s) ${missing.join(', ')} joined this source after its initial snapshot; run a full refresh of the source to copy them (the slot is recreated).`, { tables: missing });
  }
  return saved.reduce((a, b) => (b! < a! ? b : a))!;
}

/**
 * Waits (up to 15 s) for the slot to be free: after a killed sync the server notices the lost
 * connection a moment later, and a slot streams to one session at a time.
 */
async function waitInactive(sql: pg.Client, slot: string): Promise<void> {
  for (let i = 0; ; i++) {
    const info = await slotInfo(sql, slot);
    if (!info?.active) return;
    if (i >= 75) throw new SourceError('slot_in_use', `Replication slot "${slot}" is in use by server process ${info.active_pid}; stop the other consumer (or another sync of this source) first.`, { slot });
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Drops the source's replication slot and the publication Basin created (a publication the user
 * made is left alone). Run it before removing a source, or the server keeps WAL for the slot forever.
 */
export async function dropReplication(ctx: Ctx): Promise<{ slot: boolean; publication: boolean }> {
  const sql = await connect(ctx);
  try {
    const slot = await dropSlot(sql, slotName(ctx.config, ctx.name));
    const publication = await dropPublication(sql, publicationName(ctx.config, ctx.name), ctx.name);
    return { slot, publication };
  } catch (e) {
    throw describeError(e, resolveTarget(ctx));
  } finally {
    await sql.end().catch(() => undefined);
  }
}

async function* readReplication(ctx: Ctx, resources: ResourceSpec[], state: Record<string, Record<string, unknown>>): AsyncGenerator<ReadItem> {
  const cfg = ctx.config;
  const slot = slotName(cfg, ctx.name);
  const publication = publicationName(cfg, ctx.name);
  const target = resolveTarget(ctx);
  if (cfg.drop_replication) {
    const dropped = await dropReplication(ctx);
    ctx.log.info(`drop_replication: slot "${slot}" ${dropped.slot ? 'dropped' : 'was not there'}; publication "${publication}" ${dropped.publication ? 'dropped' : 'left (absent or not created by Basin)'}; nothing was loaded`);
    return;
  }
  const sql = await connect(ctx);
  let repl: pg.Client | null = null;
  const onAbort = () => {
    void sql.end().catch(() => undefined);
    void repl?.end().catch(() => undefined);
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const server = await checkServer(sql, ctx);
    const { tables: all } = await tablesOf(sql, ctx);
    const wanted = new Set(resources.map((r) => r.name));
    const tables = all.filter((t) => wanted.has(t.resource));
    const start = ctx.options.fullRefresh ? null : committedPosition(state, slot, tables);
    let end: bigint;
    if (start === null) {
      // initial copy: a fresh slot and the snapshot it exports (a slot left by an uncommitted first sync is replaced)
      await ensurePublication(sql, publication, cfg.schema, all, ctx.name, server.versionNum);
      if (await dropSlot(sql, slot)) ctx.log.info(`replication slot "${slot}" dropped: a new snapshot starts it again`);
      repl = await connect(ctx, 'replication');
      const created = await createSlot(repl, slot, server.versionNum);
      ctx.log.info(`replication slot "${slot}" created at ${formatLsn(created.consistentPoint)}; reading the initial snapshot of ${tables.length} table(s)`);
      yield* readSnapshot(ctx, sql, created.snapshot, created.consistentPoint, tables);
      end = created.consistentPoint;
    } else {
      const info = await slotInfo(sql, slot);
      if (!info) {
        throw new SourceError('slot_missing', `Replication slot "${slot}" no longer exists on ${target.where}, so the changes since ${formatLsn(start)} cannot be read; run a full refresh of the source to start again from a new snapshot.`, { slot });
      }
      if (info.confirmed_flush_lsn && lsnToBigint(info.confirmed_flush_lsn) > start) {
        throw new SourceError('slot_moved', `Replication slot "${slot}" was advanced past this source's committed position ${formatLsn(start)} by another consumer; changes in between are gone: run a full refresh and let only Basin use the slot.`, { slot });
      }
      await waitInactive(sql, slot);
      // what was committed (flushed) when the sync started: the run's bound
      const upTo = lsnToBigint((await sql.query('SELECT pg_current_wal_flush_lsn()::text AS l')).rows[0].l);
      repl = await connect(ctx, 'replication');
      const result: StreamResult = { end: start, changes: 0 };
      yield* streamChanges(ctx, repl, { slot, publication, start, target: upTo, schema: cfg.schema, tables: new Map(tables.map((t) => [t.name, t])) }, result);
      end = result.end;
      ctx.log.info(`${result.changes} change(s) read from slot "${slot}" between ${formatLsn(start)} and ${formatLsn(end)}`);
    }
    // committed with the rows above; acknowledged to the server only at the start of the next sync
    for (const t of tables) yield { kind: 'state', resource: t.resource, state: { slot, lsn: formatLsn(end) } satisfies ReplicationState };
  } catch (e) {
    if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
    throw describeError(e, target);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await repl?.end().catch(() => undefined);
    await sql.end().catch(() => undefined);
  }
}

/**
 * PostgreSQL logical replication (pgoutput) into the warehouse: an initial snapshot exported by
 * the slot, then inserts, updates and deletes merged on the primary key, each sync reading up to
 * the WAL position current at its start. The slot's position is committed with the data.
 */
export default defineSource({
  type: 'pg_replication',
  title: 'PostgreSQL replication',
  category: 'database',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: PgReplicationConfig,
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  discoverSelects: true,
  async teardown(ctx) {
    const dropped = await dropReplication(ctx);
    const slot = slotName(ctx.config, ctx.name);
    const publication = publicationName(ctx.config, ctx.name);
    return `replication slot "${slot}" ${dropped.slot ? 'dropped' : 'was not there'}; publication "${publication}" ${dropped.publication ? 'dropped' : 'left (absent or not created by Basin)'}`;
  },
  async check(ctx) {
    let sql: pg.Client | null = null;
    try {
      const target = resolveTarget(ctx);
      sql = await connect(ctx);
      const server = await checkServer(sql, ctx);
      const { tables, skipped } = await tablesOf(sql, ctx);
      const slot = slotName(ctx.config, ctx.name);
      const info = await slotInfo(sql, slot);
      const skip = skipped.length ? ` Skipped for lack of a primary key: ${skipped.join(', ')}.` : '';
      return { ok: true, message: `Connected to PostgreSQL ${server.version} at ${target.where}; ${tables.length} table(s) to replicate; slot "${slot}" ${info ? 'exists' : 'is created by the first sync'}.${skip}` };
    } catch (e) {
      return { ok: false, message: e instanceof SourceError ? e.message : `pg_replication: ${(e as Error).message}` };
    } finally {
      await sql?.end().catch(() => undefined);
    }
  },
  async discover(ctx) {
    const sql = await connect(ctx);
    try {
      const { tables, skipped } = await tablesOf(sql, ctx);
      if (skipped.length) ctx.log.warn(`table(s) without a primary key are not replicated: ${skipped.join(', ')}`);
      return tables.map((t) => toResource(t, ctx.config));
    } finally {
      await sql.end().catch(() => undefined);
    }
  },
  read: readReplication,
});
