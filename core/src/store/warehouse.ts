import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
// DuckDB's native module (~30 MB RSS, a quarter second to load) is imported when a warehouse first
// opens, so CLI commands and the server's start-up that never touch it do not pay for it
const duckdb = () => import('@duckdb/node-api');

/** how many times a scheduled publish looks again while writes are queued before it runs anyway (x publishDelayMs, 50 ms: ~2 s) */
const MAX_PUBLISH_WAITS = 40;

export type Conn = DuckDBConnection;

export interface WarehouseOptions {
  dbPath: string;
  servingPath: string;
  /** how long a read waits for the warehouse to come back from a handoff before failing */
  reopenWaitMs?: number;
  threads?: number;
  /**
   * Publish the serving copy on its own after writes (the running app): a write that is not staging
   * makes the copy stale and a publish follows once writes pause (`publishDelayMs`, default 50 ms).
   */
  autoPublish?: boolean;
  publishDelayMs?: number;
  /**
   * This process serves no reader of its own (`basin sync` from the shell): writes leave the serving
   * copy stale instead of publishing it, and the first reader that needs it publishes it (a server's
   * start, a query). A copy nobody reads before the next write is never made.
   */
  publishOnRead?: boolean;
  /** called when a publish the warehouse started on its own fails (the previous copy stays) */
  onPublishError?: (err: unknown) => void;
}

export interface WriteOptions {
  /** run under the load memory limit (bulk loads): DuckDB spills to disk instead of growing the process */
  bounded?: boolean;
  /** the write changes nothing a reader sees (staging tables, bookkeeping): the serving copy stays fresh */
  staging?: boolean;
}

/** Quotes an identifier for DuckDB SQL. */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** Quotes a string literal for DuckDB SQL. */
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Views copied into the serving file keep catalog-qualified references to the warehouse (dbt-duckdb
 * writes `"warehouse"."raw_x"."t"`), but a reader opening serving.db gets a catalog named `serving`,
 * so such views fail to bind there. Re-create those views in the copy without the catalog qualifier.
 */
async function unqualifyViews(c: Conn, sourceCatalog: string, copyCatalog: string): Promise<void> {
  const views = (
    await c.runAndReadAll(`SELECT sql FROM duckdb_views() WHERE database_name = ${literal(copyCatalog)} AND NOT internal`)
  ).getRowObjectsJson() as Array<{ sql: string }>;
  const pattern = `(?<![\\w."'])(?:${escapeRegExp(ident(sourceCatalog))}|${escapeRegExp(sourceCatalog)})\\.(?=["\\w])`;
  const qualifier = new RegExp(pattern, 'gi');
  const changed = views.filter((v) => new RegExp(pattern, 'i').test(v.sql));
  if (!changed.length) return;
  await c.run(`USE ${ident(copyCatalog)}`);
  for (const v of changed) await c.run(v.sql.replace(qualifier, '').replace(/^\s*CREATE\s+VIEW\b/i, 'CREATE OR REPLACE VIEW'));
}

/**
 * The one owner of the DuckDB warehouse file (DECISIONS §3). Writes are serialized through one queue;
 * reads run concurrently on their own connections; `handoff` closes the file for an external writer
 * (dbt) and reopens it. It alone publishes the read-only serving copy every reader outside the writer
 * uses (issue 11): it knows when the copy is stale, coalesces requests into one publish at a time
 * plus at most one queued, and copies under the load memory limit. Writers ask (`publishServingCopy`);
 * readers wait for a fresh copy (`servingCopyReady`) and never publish.
 */
export class Warehouse {
  private instance: DuckDBInstance | null = null;
  private opening: Promise<void> | null = null;
  private writeChain: Promise<unknown> = Promise.resolve();
  private closedUntil: Promise<void> | null = null;
  private publishing: Promise<void> | null = null;
  private queuedPublish: Promise<void> | null = null;
  private publishTimer: NodeJS.Timeout | null = null;
  private scheduledPublish: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
  private stale = false;
  /** writes queued so far that readers see (not staging), hand-offs included */
  private writesQueued = 0;
  /** `writesQueued` when the running publish was queued: the writes it holds (the queue runs in order) */
  private publishingCovers = -1;
  /** writes (any kind, hand-offs and publishes included) queued or running now */
  private writesInQueue = 0;
  private loadMemoryLimitMb: number | null = null;
  private servingPublishedAt: Date | null = null;
  /** how the last serving copy was made: a byte copy after a checkpoint, or a logical COPY FROM DATABASE */
  lastPublishMode: 'file_copy' | 'logical_copy' | null = null;

  constructor(readonly opts: WarehouseOptions) {}

  get dbPath(): string {
    return this.opts.dbPath;
  }
  get servingPath(): string {
    return this.opts.servingPath;
  }
  get isOpen(): boolean {
    return this.instance !== null;
  }
  /** writes leave the serving copy to its first reader (WarehouseOptions.publishOnRead) */
  get publishesOnRead(): boolean {
    return !!this.opts.publishOnRead;
  }
  get servingCopyAt(): Date | null {
    if (this.servingPublishedAt) return this.servingPublishedAt;
    try {
      return fs.statSync(this.opts.servingPath).mtime;
    } catch {
      return null;
    }
  }

  /** the memory limit of bounded writes and of publishing (sync.load_memory_limit_mb); null = DuckDB's own */
  setLoadMemoryLimit(mb: number | null): void {
    this.loadMemoryLimitMb = mb;
  }

  /** opens the file (once: callers arriving while it opens share the same open) */
  open(): Promise<void> {
    if (this.instance) return Promise.resolve();
    this.opening ??= this.openNow().finally(() => (this.opening = null));
    return this.opening;
  }

  private async openNow(): Promise<void> {
    fs.mkdirSync(path.dirname(this.opts.dbPath), { recursive: true });
    const options: Record<string, string> = {};
    if (this.opts.threads) options.threads = String(this.opts.threads);
    this.instance = await (await duckdb()).DuckDBInstance.create(this.opts.dbPath, options);
    // DuckDB's spill folder of a process killed mid-load stays behind; we hold the file's lock now and
    // have not spilled yet, so whatever is in it is garbage (issue 12)
    fs.rmSync(`${this.opts.dbPath}.tmp`, { recursive: true, force: true });
    // a copy missing, or older than the warehouse (written while no server ran, or by dbt): publish
    if (this.opts.autoPublish && this.servingOlderThanWarehouse()) this.markStale();
  }

  /**
   * The warehouse file exists and its serving copy is missing or older (written while no server ran,
   * or by dbt): a server opens the warehouse at boot then, to publish; otherwise DuckDB opens on first use.
   */
  get needsPublishAtOpen(): boolean {
    return !this.opts.publishOnRead && fs.existsSync(this.opts.dbPath) && this.servingOlderThanWarehouse();
  }

  /** the serving copy is missing or older than the warehouse file or its WAL */
  private servingOlderThanWarehouse(): boolean {
    const mtime = (f: string) => {
      try {
        return fs.statSync(f, { bigint: true }).mtimeNs;
      } catch {
        return null;
      }
    };
    const serving = mtime(this.opts.servingPath);
    if (serving === null) return true;
    return (mtime(this.opts.dbPath) ?? 0n) > serving || (mtime(`${this.opts.dbPath}.wal`) ?? 0n) > serving;
  }

  /** true when a write since the last publish has not reached the serving copy yet */
  get servingCopyStale(): boolean {
    return this.stale || !fs.existsSync(this.opts.servingPath);
  }

  /** a write changed what readers see: publish once writes pause (coalesced with any pending request) */
  private markStale(): void {
    this.stale = true;
    if (!this.opts.autoPublish || this.opts.publishOnRead || this.publishTimer || this.scheduledPublish) return;
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch((err) => this.opts.onPublishError?.(err));
    this.scheduledPublish = { promise, resolve, reject };
    // not unref'd: whoever waits for the copy (servingCopySettled) must not see the process exit first
    this.publishTimer = setTimeout(() => this.onPublishTimer(), this.opts.publishDelayMs ?? 50);
  }

  /**
   * Writes have paused for the delay, unless some are still queued or running: then look again later.
   * A copy started now would wait behind them in the queue anyway, and it would hold a write that is
   * about to be replaced (a sync: a load's statement, then its commit; a first sync opening a
   * warehouse without a serving copy copied the whole staging table before the commit could run).
   */
  private onPublishTimer(waited = 0): void {
    this.publishTimer = null;
    const delay = this.opts.publishDelayMs ?? 50;
    // not for ever: writers that never leave the queue empty would keep readers on an old copy
    if (this.writesInQueue > 0 && waited < MAX_PUBLISH_WAITS) this.publishTimer = setTimeout(() => this.onPublishTimer(waited + 1), delay);
    else this.fireScheduled();
  }

  private fireScheduled(): void {
    const s = this.scheduledPublish;
    if (this.publishTimer) clearTimeout(this.publishTimer);
    this.publishTimer = null;
    this.scheduledPublish = null;
    if (s) this.requestPublish().then(s.resolve, s.reject);
  }

  /**
   * For readers: waits (at most `maxWaitMs`) until the serving copy holds every write made so far,
   * then returns; a copy that is still older afterwards is served as it is. A copy that is missing,
   * or that a process publishing on read left behind its own writes (`publishOnRead`, or a warehouse
   * written while no server ran), is published now and waited for in full: no load stands before it.
   */
  async servingCopyReady(maxWaitMs: number): Promise<void> {
    const idle = !this.publishing && !this.queuedPublish && !this.scheduledPublish;
    if (idle && this.opts.autoPublish && !this.closedUntil && (this.opts.publishOnRead ? this.stale || this.servingOlderThanWarehouse() : !this.instance && this.servingOlderThanWarehouse())) {
      // opening a stale warehouse schedules a publish (after writes): start that one now
      if (!this.instance) await this.open();
      const s = this.scheduledPublish;
      if (s) this.fireScheduled();
      await (s?.promise ?? this.requestPublish());
      return;
    }
    if (!fs.existsSync(this.opts.servingPath) && idle && this.instance) this.markStale();
    const pending = this.scheduledPublish?.promise ?? this.queuedPublish ?? this.publishing;
    if (!pending) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([pending.catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, maxWaitMs)))]).finally(() => clearTimeout(timer));
  }

  /** resolves when no publish is scheduled, running or queued (shutdown, tests) */
  async servingCopySettled(): Promise<void> {
    for (;;) {
      const pending = this.scheduledPublish?.promise ?? this.queuedPublish ?? this.publishing;
      if (!pending) return;
      await pending.catch(() => undefined);
    }
  }

  private async waitOpen(): Promise<DuckDBInstance> {
    if (this.closedUntil) {
      const wait = this.opts.reopenWaitMs ?? 120_000;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.closedUntil,
        new Promise((_, rej) => (timer = setTimeout(() => rej(new Error('warehouse is busy with a transformation run; retry shortly')), wait))),
      ]).finally(() => clearTimeout(timer));
    }
    if (!this.instance) await this.open();
    return this.instance!;
  }

  private async withConn<T>(fn: (c: Conn) => Promise<T>): Promise<T> {
    const inst = await this.waitOpen();
    const conn = await inst.connect();
    try {
      return await fn(conn);
    } finally {
      conn.closeSync();
    }
  }

  /** A read on its own connection (MVCC: sees committed data, never waits for the write queue). */
  read<T>(fn: (c: Conn) => Promise<T>): Promise<T> {
    return this.withConn(fn);
  }

  /**
   * A write, serialized with every other write. `bounded` lowers DuckDB's memory limit to the load
   * limit while it runs (restored after); a write that is not `staging` makes the serving copy stale.
   */
  write<T>(fn: (c: Conn) => Promise<T>, opts: WriteOptions = {}): Promise<T> {
    const body = opts.bounded ? (c: Conn) => this.withMemoryLimit(c, () => fn(c)) : fn;
    const run = this.writeChain.then(() => this.withConn(body));
    this.writeChain = run.catch(() => undefined);
    this.countInQueue(run);
    if (!opts.staging) this.writesQueued++;
    if (!opts.staging) void run.then(() => this.markStale(), () => this.markStale());
    return run;
  }

  private countInQueue(run: Promise<unknown>): void {
    this.writesInQueue++;
    void run.then(
      () => this.writesInQueue--,
      () => this.writesInQueue--,
    );
  }

  /** the one place the load memory limit is applied: set for `fn`, the previous limit restored after */
  private async withMemoryLimit<T>(c: Conn, fn: () => Promise<T>): Promise<T> {
    const mb = this.loadMemoryLimitMb;
    if (!mb) return fn();
    const previous = String((await c.runAndReadAll("SELECT current_setting('memory_limit')")).getRows()[0]![0]);
    await c.run(`SET memory_limit = ${literal(`${mb}MB`)}`);
    try {
      return await fn();
    } finally {
      await c.run(`SET memory_limit = ${literal(previous)}`).catch(() => undefined);
    }
  }

  /** Rows as plain JSON-safe objects (BIGINT as string where needed). */
  async query<T = Record<string, unknown>>(sql: string, params?: Record<string, any> | any[]): Promise<T[]> {
    return this.read(async (c) => (await c.runAndReadAll(sql, params as any)).getRowObjectsJson() as T[]);
  }

  /**
   * Hands the file to an external process: waits for queued writes, checkpoints, closes, runs `fn`,
   * reopens. Writes arriving meanwhile queue behind; reads wait (bounded by reopenWaitMs).
   */
  handoff<T>(fn: () => Promise<T>): Promise<T> {
    this.writesQueued++; // the other process may write anything
    const run = this.writeChain.then(async () => {
      let release!: () => void;
      this.closedUntil = new Promise<void>((r) => (release = r));
      try {
        if (this.instance) {
          const c = await this.instance.connect();
          try {
            await c.run('CHECKPOINT');
          } finally {
            c.closeSync();
          }
          this.instance.closeSync();
          this.instance = null;
        }
        return await fn();
      } finally {
        try {
          await this.open();
        } finally {
          this.closedUntil = null;
          release();
        }
      }
    });
    this.writeChain = run.catch(() => undefined);
    this.countInQueue(run);
    return run;
  }

  /**
   * Asks for a serving copy holding every write made so far. Requests coalesce: one publish runs at a
   * time, and requests arriving meanwhile share one more publish after it.
   */
  publishServingCopy(): Promise<void> {
    // a process publishing on read: the copy is left stale for its first reader
    if (this.opts.publishOnRead) {
      this.stale = true;
      return Promise.resolve();
    }
    if (this.scheduledPublish) {
      // a publish was about to start on its own: start it now and hand out its promise
      const s = this.scheduledPublish;
      this.fireScheduled();
      return s.promise;
    }
    return this.requestPublish();
  }

  private requestPublish(): Promise<void> {
    if (this.queuedPublish) return this.queuedPublish;
    // the running publish was queued after every write queued so far: it holds them all (a sync's own
    // request after its commit's scheduled publish started would otherwise copy the file twice)
    if (this.publishing && this.publishingCovers === this.writesQueued) {
      this.stale = false;
      return this.publishing;
    }
    if (this.publishing) {
      // the running publish may have missed the latest writes: one more after it, shared
      this.queuedPublish = this.publishing
        .catch(() => undefined)
        .then(() => {
          this.queuedPublish = null;
          return this.publishNow();
        });
      return this.queuedPublish;
    }
    return this.publishNow();
  }

  /**
   * Publishes data/serving.db: a full copy written to a temp file, then renamed over the old one,
   * so readers see the old or the new copy, never a partial one. Runs in the write queue, under the
   * load memory limit (copying the whole database is as memory-hungry as a load).
   */
  private publishNow(): Promise<void> {
    const target = this.opts.servingPath;
    const tmp = `${target}.${process.pid}.tmp`;
    this.stale = false;
    this.publishingCovers = this.writesQueued;
    this.publishing = this.write(async (c) => {
      fs.rmSync(tmp, { force: true });
      fs.rmSync(`${tmp}.wal`, { force: true });
      const cur = (await c.runAndReadAll('SELECT current_database() AS db')).getRowObjectsJson()[0]!.db as string;
      // Fast path: inside the write queue nothing else writes, so after a checkpoint that empties
      // the WAL the database file is complete and a byte copy of it is a consistent snapshot.
      await c.run('CHECKPOINT');
      const byteCopy = this.walBytes() === 0;
      // on libuv's thread pool (copy_file_range): the main thread goes on meanwhile, e.g. with a
      // sync's checks (copying a 50M-row warehouse blocked them for ~1 s when done synchronously).
      // A copy-on-write clone where the file system has them (btrfs, XFS, APFS): no bytes copied;
      // elsewhere (ext4) a plain copy, ~0.9 s for the 400 MB of a 50M-row warehouse here
      if (byteCopy) await fs.promises.copyFile(this.opts.dbPath, tmp, fs.constants.COPYFILE_FICLONE);
      await c.run(`ATTACH ${literal(tmp)} AS basin_serving_tmp`);
      try {
        // slow path (a reader's open transaction kept the checkpoint from finishing): logical copy
        if (!byteCopy) await c.run(`COPY FROM DATABASE ${ident(cur)} TO basin_serving_tmp`);
        await unqualifyViews(c, cur, 'basin_serving_tmp');
      } finally {
        await c.run(`USE ${ident(cur)}`);
        await c.run('DETACH basin_serving_tmp');
      }
      // on the thread pool too: replacing the old copy frees its blocks (70 ms for 40 MB on ext4 here)
      await fs.promises.rename(tmp, target);
      this.lastPublishMode = byteCopy ? 'file_copy' : 'logical_copy';
      this.servingPublishedAt = new Date();
    }, { bounded: true, staging: true }).catch((e) => {
      this.stale = true;
      throw e;
    }).finally(() => {
      this.publishing = null;
      fs.rmSync(tmp, { force: true });
    });
    return this.publishing;
  }


  /**
   * Writes a consistent copy of the warehouse to `target` (backups). Runs in the write queue, so no
   * load or dbt hand-off is half done; reads go on. After a checkpoint that empties the WAL the file
   * is copied byte for byte; otherwise (a reader kept the checkpoint from finishing) a logical copy.
   */
  snapshotTo(target: string): Promise<'file_copy' | 'logical_copy'> {
    return this.write(async (c) => {
      fs.rmSync(target, { force: true });
      fs.rmSync(`${target}.wal`, { force: true });
      await c.run('CHECKPOINT');
      if (this.walBytes() === 0) {
        fs.copyFileSync(this.opts.dbPath, target, fs.constants.COPYFILE_FICLONE);
        return 'file_copy' as const;
      }
      const cur = (await c.runAndReadAll('SELECT current_database() AS db')).getRowObjectsJson()[0]!.db as string;
      await c.run(`ATTACH ${literal(target)} AS basin_snapshot_tmp`);
      try {
        await c.run(`COPY FROM DATABASE ${ident(cur)} TO basin_snapshot_tmp`);
      } finally {
        await c.run(`USE ${ident(cur)}`);
        await c.run('DETACH basin_snapshot_tmp');
      }
      return 'logical_copy' as const;
    });
  }

  /** bytes left in the write-ahead log (0 after a complete checkpoint) */
  protected walBytes(): number {
    const wal = `${this.opts.dbPath}.wal`;
    return fs.existsSync(wal) ? fs.statSync(wal).size : 0;
  }

  /** Opens the serving copy read-only with external access off (for query, BI, notebooks). */
  static async openReadOnly(file: string): Promise<DuckDBInstance> {
    return (await duckdb()).DuckDBInstance.create(file, { access_mode: 'READ_ONLY', enable_external_access: 'false' });
  }

  async close(): Promise<void> {
    // a publish not started yet is dropped (the next start publishes a stale copy); a running one finishes
    if (this.publishTimer) clearTimeout(this.publishTimer);
    this.publishTimer = null;
    const s = this.scheduledPublish;
    this.scheduledPublish = null;
    s?.resolve();
    await this.queuedPublish?.catch(() => undefined);
    await this.publishing?.catch(() => undefined);
    await this.writeChain;
    if (this.instance) {
      try {
        const c = await this.instance.connect();
        await c.run('CHECKPOINT');
        c.closeSync();
      } catch {
        /* closing anyway */
      }
      this.instance.closeSync();
      this.instance = null;
    }
  }
}
