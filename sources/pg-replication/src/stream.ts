import type pg from 'pg';
import type { Pgoutput } from 'pg-logical-replication';
import { SourceError, type ReadItem, type SourceContext } from '@basin/sdk';
import { DELETED_COLUMN, LSN_COLUMN, type ReplTable } from './catalog.js';
import type { PgReplicationConfig } from './config.js';
import { quoteIdent } from './ident.js';
import { formatLsn, lsnNumber, lsnToBigint } from './lsn.js';
import { duckdbType, typeParsers } from './type-map.js';

/** the CopyBoth side of node-pg's connection this module uses (a public method of pg's Connection) */
interface CopyBoth {
  sendCopyFromChunk(chunk: Buffer): void;
}

/** messages queued before the socket is paused, and the level it resumes at */
const HIGH_WATER = 20_000;
const LOW_WATER = 2_000;
/** while idle, how often the server is asked where its decoding stands */
const POLL_MS = 200;
/**
 * a stream whose position has not moved for this long ends the run, at the position the server
 * reported (a fallback: runs normally end when the server has decoded past the bound)
 */
const IDLE_END_MS = 10_000;
/** standby status interval, well inside the server's wal_sender_timeout (60 s by default) */
const STATUS_MS = 10_000;
// microseconds between 1970-01-01 and 2000-01-01, PostgreSQL's epoch
const PG_EPOCH_US = 946_684_800_000_000n;

export interface StreamOptions {
  slot: string;
  publication: string;
  /** the committed position: the stream starts after it, and it is the one acknowledged to the server */
  start: bigint;
  /** the WAL flush position when the sync started: the run ends once it has been decoded */
  target: bigint;
  schema: string;
  /** source table name -> table */
  tables: Map<string, ReplTable>;
}

export interface StreamResult {
  /** the position the next sync starts from: every transaction committed before it was read */
  end: bigint;
  changes: number;
}

/**
 * Standby status update ('r'): written, flushed and applied positions, all the committed one (so the
 * server may recycle WAL before it and nothing after), the clock, and whether to answer at once.
 */
function statusUpdate(lsn: bigint, reply: boolean): Buffer {
  const b = Buffer.alloc(34);
  b.write('r', 0);
  b.writeBigUInt64BE(lsn, 1);
  b.writeBigUInt64BE(lsn, 9);
  b.writeBigUInt64BE(lsn, 17);
  b.writeBigInt64BE(BigInt(Date.now()) * 1000n - PG_EPOCH_US, 25);
  b.writeUInt8(reply ? 1 : 0, 33);
  return b;
}

/**
 * Streams the slot's changes (pgoutput, protocol 1) from `start` up to `target`, one row per change
 * with its LSN and the delete flag, in batches per resource. It stops only between transactions,
 * so a run holds whole transactions. It never moves the slot forward: `start` (the position the
 * warehouse committed) is the only position acknowledged, so a crashed run is streamed again.
 */
export async function* streamChanges(ctx: SourceContext<PgReplicationConfig>, repl: pg.Client, o: StreamOptions, result: StreamResult): AsyncGenerator<ReadItem> {
  const conn = repl.connection as pg.Connection & Partial<CopyBoth>;
  if (typeof conn.sendCopyFromChunk !== 'function') throw new Error('this version of pg cannot send replication status updates');
  const send = (lsn: bigint, reply: boolean) => conn.sendCopyFromChunk!(statusUpdate(lsn, reply));
  // imported here (it pulls node-pg in) rather than when the server lists the source types
  const { PgoutputPlugin } = await import('pg-logical-replication');
  const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: [o.publication] });
  // messages decoded as they arrive (node-pg reuses the buffer a chunk points into), in a FIFO
  // with a read index (Array.shift is linear in the queue's length)
  let queue: Incoming[] = [];
  let head = 0;
  const queued = () => queue.length - head;
  let wake: (() => void) | null = null;
  let failure: unknown = null;
  let paused = false;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  conn.on('copyData', (chunk: { chunk: Buffer }) => {
    // after a decoding error later messages cannot be trusted (their relation may be unknown)
    if (failure) return;
    const buf = chunk.chunk;
    try {
      if (buf[0] === 0x77) {
        const msg = plugin.parse(buf.subarray(25));
        // values in PostgreSQL's text form, as the snapshot reads them (set before the relation's rows are decoded)
        if (msg.tag === 'relation') for (const c of msg.columns) c.parser = typeParsers.getTypeParser(c.typeOid);
        queue.push({ lsn: buf.readBigUInt64BE(1), msg });
      } else if (buf[0] === 0x6b) {
        // primary keepalive: the server's decoding position, and whether it wants an answer now
        if (buf[17]) send(o.start, false);
        queue.push({ walEnd: buf.readBigUInt64BE(1) });
      }
    } catch (e) {
      failure ??= e;
    }
    if (!paused && queued() >= HIGH_WATER) {
      paused = true;
      conn.stream.pause();
    }
    poke();
  });
  let started = false;
  conn.once('replicationStart', () => {
    started = true;
    // acknowledge what the warehouse holds and ask where the server stands
    send(o.start, true);
    poke();
  });
  const streaming = repl
    .query(`START_REPLICATION SLOT ${quoteIdent(o.slot)} LOGICAL ${formatLsn(o.start)} (proto_version '1', publication_names '${quoteIdent(o.publication).replace(/'/g, "''")}')`)
    .then(
      () => {
        failure ??= new SourceError('connection_failed', 'the server ended the replication stream');
        poke();
      },
      (e) => {
        failure ??= e;
        poke();
      },
    );
  void streaming;
  // while the queue is empty, ask the server where it stands (its answer may end the run); and
  // report status now and then, inside wal_sender_timeout, however long a batch takes to load
  let ticks = 0;
  const ticker = setInterval(() => {
    if (!started) return;
    const idle = !queued();
    if (idle || ++ticks * POLL_MS >= STATUS_MS) {
      ticks = 0;
      send(o.start, idle);
    }
    if (idle) poke();
  }, POLL_MS);
  const buffers = new Map<string, Record<string, unknown>[]>();
  const warnedToast = new Set<string>();
  let inTxn = false;
  let position = o.start;
  let lastMove = Date.now();
  let lastWalEnd = -1n;
  try {
    for (;;) {
      if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
      if (failure) throw failure;
      const item = head < queue.length ? queue[head++] : undefined;
      if (head > 4096 && head * 2 > queue.length) {
        queue = queue.slice(head);
        head = 0;
      }
      if (!item) {
        if (started && !inTxn && Date.now() - lastMove > IDLE_END_MS) break;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (paused && queued() <= LOW_WATER) {
        paused = false;
        conn.stream.resume();
      }
      if ('walEnd' in item) {
        const walEnd = item.walEnd;
        if (walEnd !== lastWalEnd) {
          lastWalEnd = walEnd;
          lastMove = Date.now();
        }
        if (!inTxn) {
          // everything committed before walEnd has been sent ahead of this message
          if (walEnd > position) position = walEnd;
          if (walEnd >= o.target) break;
        }
        continue;
      }
      lastMove = Date.now();
      const { lsn, msg } = item;
      switch (msg.tag) {
        case 'begin':
          inTxn = true;
          break;
        case 'commit': {
          inTxn = false;
          const end = msg.commitEndLsn ? lsnToBigint(msg.commitEndLsn) : lsn;
          if (end > position) position = end;
          for (const [resource, rows] of buffers) if (rows.length) yield { kind: 'records', resource, records: rows.splice(0) };
          if (end >= o.target) return finish();
          break;
        }
        case 'insert':
        case 'update':
        case 'delete': {
          const t = msg.relation.schema === o.schema ? o.tables.get(msg.relation.name) : undefined;
          if (!t) break;
          for (const row of toRows(msg, t, lsn, warnedToast, ctx)) {
            let rows = buffers.get(t.resource);
            if (!rows) buffers.set(t.resource, (rows = []));
            rows.push(row);
            result.changes++;
            if (rows.length >= ctx.config.chunk_size) yield { kind: 'records', resource: t.resource, records: rows.splice(0) };
          }
          break;
        }
        case 'truncate':
          for (const r of msg.relations) {
            if (r && o.tables.has(r.name)) ctx.log.warn(`${r.schema}.${r.name} was truncated at the source; a change stream cannot replay that: run a full refresh of this source to drop the rows it still has`);
          }
          break;
        default:
          break;
      }
    }
    return finish();
  } finally {
    clearInterval(ticker);
  }

  function finish(): void {
    result.end = position;
  }
}

/** a decoded XLogData message with its WAL position, or a keepalive's server position */
type Incoming = { lsn: bigint; msg: Pgoutput.Message } | { walEnd: bigint };

const decimals = new WeakMap<ReplTable, string[]>();
function decimalColumns(t: ReplTable): string[] {
  let d = decimals.get(t);
  if (!d) decimals.set(t, (d = t.columns.filter((c) => duckdbType(c).startsWith('DECIMAL')).map((c) => c.name)));
  return d;
}

type RowChange = Pgoutput.MessageInsert | Pgoutput.MessageUpdate | Pgoutput.MessageDelete;

/**
 * The warehouse rows of one change: the new row (insert, update), the key with the delete flag
 * (delete; the whole old row with REPLICA IDENTITY FULL), and for an update that changed the key a
 * delete of the old key as well.
 */
function toRows(msg: RowChange, t: ReplTable, lsn: bigint, warned: Set<string>, ctx: SourceContext<PgReplicationConfig>): Record<string, unknown>[] {
  const at = lsnNumber(lsn);
  const keyOf = (row: Record<string, unknown>) => JSON.stringify(t.primaryKey.map((k) => row[k]));
  // the decoder makes a fresh object per tuple: marked in place (no copy per change)
  const mark = (row: Record<string, unknown>, isDelete: boolean) => {
    row[LSN_COLUMN] = at;
    row[DELETED_COLUMN] = isDelete;
    return row;
  };
  const deleted = (row: Record<string, unknown>) => mark(row, true);
  if (msg.tag === 'delete') {
    const old = msg.old ?? msg.key;
    return old ? [deleted(old)] : [];
  }
  const row = msg.new;
  for (const c of msg.relation.columns) {
    if (row[c.name] === undefined && !warned.has(c.name)) {
      warned.add(c.name);
      ctx.log.warn(`${t.name}.${c.name}: an update left this large (TOASTed) value unchanged and PostgreSQL did not send it, so it was stored as NULL; run ALTER TABLE ${quoteIdent(t.name)} REPLICA IDENTITY FULL to receive it`);
    }
  }
  // numeric NaN/Infinity has no DECIMAL value (as in the snapshot)
  for (const k of decimalColumns(t)) {
    const v = row[k];
    if (typeof v === 'string' && (v === 'NaN' || v.endsWith('Infinity'))) row[k] = null;
  }
  const out: Record<string, unknown>[] = [];
  if (msg.tag === 'update') {
    const before = msg.old ?? msg.key;
    if (before && keyOf(before) !== keyOf(row)) out.push(deleted(before));
  }
  out.push(mark(row, false));
  return out;
}
