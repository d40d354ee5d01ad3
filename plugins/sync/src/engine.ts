import crypto from 'node:crypto';
import path from 'node:path';
import { BasinError, errors, literal, type BasinConfig, type Clock, type EventBus, type Logger, type Warehouse, type WarehouseClient } from '@basin/core';
import type { SourceEntry, SourceRegistry, SourcesConfig } from '@basin/plugin-sources/contract';
import { notImplemented, SourceError, type OAuthToken, type ResourceSpec, type SourceDefinition, type SourceLogger } from '@basin/sdk';
import { buildSourceContext, redact } from './context.js';
import { committedSyncIds, dropStaleStaging, LoadSession } from './loader.js';
import { shipToServerWarehouse } from './load/server-warehouse.js';
import type { SyncStore } from './store.js';
import type { PostLoadHook, SyncEngine, SyncOptions, SyncRecord, SyncTrigger } from './types.js';
import type { SyncExecutor, SyncJob, SyncJobResult, SyncProgressEvent, SyncRemote } from './contract.js';
import { syncErrors } from './errors.js';

interface Job {
  record: SyncRecord;
  controller: AbortController;
  done: Promise<SyncRecord>;
  opts: SyncOptions;
}

export interface EngineDeps {
  config: BasinConfig;
  registry: SourceRegistry;
  /** the live list of configured sources (an edit of sources.yml is taken in) */
  sources: SourcesConfig;
  warehouse: Warehouse;
  /** a server warehouse (warehouse.type other than duckdb) that receives what each sync committed */
  serverWarehouse?: { local: WarehouseClient; server: WarehouseClient };
  store: SyncStore;
  events: EventBus;
  clock: Clock;
  log: Logger;
  /** provider OAuth tokens for oauth2 source types (the secrets plugin's, through the sources contract) */
  oauthToken?: (sourceType: string) => Promise<OAuthToken>;
}

const iso = (d: Date) => d.toISOString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs syncs as jobs: one per source, at most `platform.workers` at once, cancellable, recorded in state.db. */
/** how often a running sync reports progress on the event bus */
const PROGRESS_INTERVAL_MS = 250;

export class SyncEngineImpl implements SyncEngine, SyncRemote {
  /** set when syncs run on workers (the workers plugin's queue): start() hands them over */
  private executor: SyncExecutor | null = null;
  private readonly jobs = new Map<string, Job>();
  private readonly bySource = new Map<string, string>();
  private readonly hooks: PostLoadHook[] = [];
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private staleStagingDropped: Promise<unknown> | null = null;

  constructor(private readonly d: EngineDeps) {}

  private get workers(): number {
    return this.d.config.platform.workers ?? 1;
  }

  /**
   * Start-up recovery after a crash: fail "running" history, settle two-phase state, drop stale
   * staging. After a clean stop (nothing running or pending) it leaves the warehouse closed: DuckDB
   * opens on first use (issue 19), and stale staging is dropped before the first sync loads instead.
   */
  async recover(): Promise<void> {
    const n = this.d.store.failInterrupted(iso(this.d.clock.now()));
    if (n) this.d.log.warn({ count: n }, 'marked syncs interrupted by a previous stop as failed');
    const pending = this.d.store.pendingSyncIds();
    if (n === 0 && pending.length === 0 && !this.d.warehouse.isOpen) return;
    const committed = await committedSyncIds(this.d.warehouse, pending);
    for (const id of pending) {
      if (committed.has(id)) this.d.store.promotePending(id, iso(this.d.clock.now()));
      else this.d.store.dropPending(id);
    }
    this.staleStagingDropped = dropStaleStaging(this.d.warehouse);
    await this.staleStagingDropped;
  }

  /** drops staging tables a previous process left, once, before this process stages anything */
  private dropStaleStagingOnce(): Promise<unknown> {
    this.staleStagingDropped ??= dropStaleStaging(this.d.warehouse).catch((err) => this.d.log.warn({ err }, 'dropping stale staging tables failed'));
    return this.staleStagingDropped;
  }

  useExecutor(executor: SyncExecutor): void {
    this.executor = executor;
  }

  /**
   * Runs a job the server sent (in a worker). The worker's embedded DuckDB holds the tables of the
   * syncs it ran: when the server's last sync of the source was not this worker's, a merge here would
   * ship a partial table, so the worker rebuilds the source in full instead.
   */
  async runJob(job: SyncJob, worker: string, signal?: AbortSignal): Promise<SyncJobResult> {
    const mine = this.d.store.lastSuccess(job.source)?.id ?? null;
    const rebuilt = !job.full_refresh && mine !== job.last_sync_id;
    const r = await this.run(job.source, {
      id: job.sync_id,
      fullRefresh: job.full_refresh || rebuilt,
      startDate: job.start_date,
      endDate: job.end_date,
      trigger: job.trigger as SyncTrigger,
      schedule: job.schedule,
      ...(signal ? { signal } : {}),
    });
    const ok = r.status === 'succeeded' || r.status === 'empty';
    return {
      status: r.status === 'running' ? 'failed' : r.status,
      rows: r.rows,
      tables: r.tables,
      error: r.error,
      started_at: r.started_at,
      finished_at: r.finished_at ?? iso(this.d.clock.now()),
      state: ok ? this.d.store.state(job.source) : {},
      observed: ok ? this.d.store.tables(job.source).map((t) => ({ name: t.name, schema: t.schema, rows: t.rows, columns: t.columns })) : [],
      worker,
      rebuilt,
    };
  }

  addPostLoadHook(fn: PostLoadHook): void {
    this.hooks.push(fn);
  }

  isRunning(source: string): boolean {
    return this.bySource.has(source);
  }

  runningIds(): string[] {
    return [...this.bySource.values()];
  }

  get(id: string): SyncRecord | undefined {
    const j = this.jobs.get(id);
    return j ? { ...j.record } : this.d.store.getHistory(id);
  }

  async wait(id: string): Promise<SyncRecord> {
    const j = this.jobs.get(id);
    if (j) return j.done;
    const r = this.d.store.getHistory(id);
    if (!r) throw errors.notFound(`Sync record "${id}"`);
    return r;
  }

  cancel(id: string): boolean {
    const j = this.jobs.get(id);
    if (!j || j.record.status !== 'running') return false;
    j.controller.abort(new SourceError('cancelled', 'the sync was cancelled'));
    return true;
  }

  run(source: string, opts: SyncOptions = {}): Promise<SyncRecord> {
    return this.wait(this.start(source, opts).id);
  }

  start(source: string, opts: SyncOptions = {}): SyncRecord {
    const entry = this.d.sources.find(source);
    if (!entry) throw errors.notFound(`Source "${source}"`, { source });
    // a sync's id is the UUID on its rows (`_basin_sync_id`); ids from a queue are made by crypto.randomUUID too
    if (opts.id !== undefined && !UUID.test(opts.id)) throw errors.badRequest(`A sync id is a UUID; got "${opts.id}".`, { sync_id: opts.id });
    if (this.bySource.has(source)) {
      throw syncErrors.sync_in_progress({ source }, { details: { source, sync_id: this.bySource.get(source) } });
    }
    const record: SyncRecord = {
      id: opts.id ?? crypto.randomUUID(),
      source,
      status: 'running',
      started_at: iso(this.d.clock.now()),
      finished_at: null,
      rows: 0,
      tables: [],
      error: null,
      trigger: opts.trigger ?? 'api',
      schedule: opts.schedule ?? null,
    };
    const controller = new AbortController();
    if (opts.signal) {
      if (opts.signal.aborted) controller.abort(opts.signal.reason);
      else opts.signal.addEventListener('abort', () => controller.abort(opts.signal!.reason), { once: true });
    }
    this.d.store.insertHistory(record, !!opts.fullRefresh);
    this.bySource.set(source, record.id);
    // `done` is replaced just below: the job is registered before its run is chained
    const job: Job = { record, controller, opts, done: Promise.resolve(record) };
    this.jobs.set(record.id, job);
    const executor = this.executor;
    // on workers the queue bounds how many run at once, not this process's slots
    this.track(job, executor ? this.executeRemote(job, executor) : this.slot().then(() => this.execute(job, entry).finally(() => this.release())));
    return { ...record };
  }

  private track(job: Job, run: Promise<SyncRecord>): void {
    job.done = run.finally(() => {
      this.bySource.delete(job.record.source);
      // keep the finished job briefly reachable through get(); history has it for good
      this.jobs.delete(job.record.id);
    });
  }

  async adoptRemote(): Promise<number> {
    const executor = this.executor;
    if (!executor) return 0;
    let adopted = 0;
    for (const sent of await executor.unfinished()) {
      const old = this.d.store.getHistory(sent.sync_id);
      // another project's row, one this process already waits for, or a source that runs again now
      if (!old || this.jobs.has(sent.sync_id) || this.bySource.has(sent.source)) continue;
      if (old.status !== 'failed' && old.status !== 'running') continue;
      const record: SyncRecord = { ...old, status: 'running', finished_at: null, error: null };
      this.d.store.finishHistory(record);
      this.bySource.set(record.source, record.id);
      const job: Job = { record, controller: new AbortController(), opts: { fullRefresh: sent.full_refresh, trigger: record.trigger as SyncTrigger, schedule: record.schedule }, done: Promise.resolve(record) };
      this.jobs.set(record.id, job);
      this.track(job, this.executeRemote(job, executor, sent));
      adopted++;
    }
    return adopted;
  }

  private slot(): Promise<void> {
    if (this.active < this.workers) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => (this.active++, resolve())));
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  private sourceLog(source: string, syncId: string, secrets: Set<string>): SourceLogger {
    const at = () => iso(this.d.clock.now());
    const write = (level: string) => (msg: string, data?: Record<string, unknown>) => {
      // data is never stored: a source could put a token in it; the message is redacted of known secrets
      const text = redact(msg, secrets);
      this.d.store.log(source, syncId, level, text, at());
      (this.d.log as any)[level === 'warn' ? 'warn' : level === 'error' ? 'error' : 'info']({ source, sync_id: syncId }, text);
      void data;
    };
    return { info: write('info'), warn: write('warn'), error: write('error') };
  }

  private async execute(job: Job, entry: SourceEntry): Promise<SyncRecord> {
    const { record, controller, opts } = job;
    const { store, events, clock, config, registry } = this.d;
    const fullRefresh = !!opts.fullRefresh;
    const secrets = new Set<string>();
    const log = this.sourceLog(record.source, record.id, secrets);
    const startedMs = Date.now();
    let lastProgressMs = 0;
    let phaseStart = performance.now();
    const phaseDone = (phase: 'load' | 'swap' | 'checks') => {
      const now = performance.now();
      opts.onPhase?.(phase, now - phaseStart);
      phaseStart = now;
    };
    const payloadSchedule = record.schedule ? { schedule: record.schedule } : {};
    void events.emit('sync_started', { source: record.source, sync_id: record.id, trigger: record.trigger, ...payloadSchedule });
    log.info(`sync started (trigger ${record.trigger}${fullRefresh ? ', full refresh' : ''})`);

    let session: LoadSession | null = null;
    try {
      if (controller.signal.aborted) throw new SourceError('cancelled', 'the sync was cancelled');
      const def = registry.get(entry.type);
      if (!def) throw new SourceError('unknown_type', `Source type "${entry.type}" is not installed.`, { type: entry.type });
      if (def.implemented === false) throw notImplemented(entry.type);
      const ctx = buildSourceContext({
        config,
        entry,
        block: this.d.sources.block(entry),
        fullRefresh,
        startDate: opts.startDate,
        endDate: opts.endDate,
        signal: controller.signal,
        log,
        secrets,
        oauthToken: this.d.oauthToken,
      });
      const resources = await this.resources(def, ctx, this.d.sources.block(entry));
      const state = fullRefresh ? {} : store.state(record.source);
      await this.dropStaleStagingOnce();
      // a cancel while the warehouse opened: the source never starts (one waiting for the abort event would wait for ever)
      if (controller.signal.aborted) throw new SourceError('cancelled', 'the sync was cancelled');
      session = new LoadSession(this.d.warehouse, record.source, record.id, clock.now(), path.join(config.projectDir, '.basin', 'tmp', `sync-${record.id}`), resources, controller.signal, {
        warn: (m) => log.warn(m),
        info: (m) => log.info(m),
        progress: (resource, rows, totalRows) => {
          record.rows = totalRows;
          opts.onProgress?.({ resource, rows, totalRows });
          // live progress for /ws clients (the UI's progress bar), at most a few events a second per sync
          const nowMs = Date.now();
          if (nowMs - lastProgressMs >= PROGRESS_INTERVAL_MS) {
            lastProgressMs = nowMs;
            const seconds = Math.max((nowMs - startedMs) / 1000, 0.001);
            void events.emit('sync_progress', { source: record.source, sync_id: record.id, resource, resource_rows: rows, rows: totalRows, rows_per_second: Math.round(totalRows / seconds) });
          }
        },
      });
      const states = new Map<string, Record<string, unknown>>();
      for await (const item of def.read(ctx, resources, state)) {
        if (controller.signal.aborted) throw new SourceError('cancelled', 'the sync was cancelled');
        if (item.kind === 'state') states.set(item.resource, item.state);
        else await session.add(item);
      }
      await session.flush();
      if (controller.signal.aborted) throw new SourceError('cancelled', 'the sync was cancelled');
      phaseDone('load');
      // two-phase: pending state first, then data + commit marker in one DuckDB transaction, then promote
      store.writePending(record.id, record.source, states);
      const tables = await session.commit(fullRefresh);
      const at = iso(clock.now());
      if (fullRefresh) store.clearState(record.source);
      store.promotePending(record.id, at);
      if (def.afterCommit) {
        try {
          await def.afterCommit(ctx, store.state(record.source));
        } catch (e) {
          log.warn(`telling the source what was committed failed (the next sync tells it again): ${redact(errorMessage(e), secrets)}`);
        }
      }
      for (const t of tables) store.observeTable(record.source, t, at);
      if (this.d.serverWarehouse) {
        const { local, server } = this.d.serverWarehouse;
        const rejects = tables.flatMap((t) => (t.rejectsTable ? [t.rejectsTable.split('.').pop()!] : []));
        await shipToServerWarehouse(local, server, {
          schema: session.schema,
          source: record.source,
          syncId: record.id,
          tables: tables.map((t) => ({ name: t.name, change: fullRefresh || !t.change ? { kind: 'rebuilt' } : t.change })),
          rejects,
          cursor: store.state(record.source),
          tmpDir: path.join(config.projectDir, '.basin', 'tmp', `ship-${record.id}`),
          log: (m) => log.info(m),
        });
      }
      await session.discard();
      session = null;
      phaseDone('swap');
      record.rows = tables.reduce((n, t) => n + t.loaded, 0);
      record.tables = tables.map((t) => ({
        name: t.name,
        schema: t.schema,
        rows: t.loaded,
        ...(t.rejected ? { rejected_rows: t.rejected, rejects_table: t.rejectsTable ?? undefined } : {}),
        ...(t.widened.length ? { widened_columns: t.widened } : {}),
      }));
      for (const t of tables) {
        for (const w of t.widened) {
          log.warn(`${t.schema}.${t.name}.${w.column} widened from ${w.from} to ${w.to}: ${w.values} value(s) of this sync do not fit ${w.from}${w.example !== null ? ` (e.g. ${JSON.stringify(w.example)})` : ''}`);
        }
      }
      const rejected = tables.reduce((n, t) => n + t.rejected, 0);
      const totalRows = store.tables(record.source).reduce((n, t) => n + t.rows, 0);
      record.status = totalRows === 0 ? 'empty' : 'succeeded';
      // the commit made the serving copy stale: the warehouse publishes it (coalescing bursts of loads),
      // or leaves it to its first reader (a sync from the shell)
      const publishStart = performance.now();
      const publishes = !this.d.warehouse.publishesOnRead;
      void this.d.warehouse
        .publishServingCopy()
        .then(() => publishes && opts.onPhase?.('publish', performance.now() - publishStart))
        .catch((err) => this.d.log.error({ err }, 'publishing the serving copy failed'));
      for (const hook of this.hooks) {
        try {
          await hook({ source: record.source, syncId: record.id, tables: record.tables, fullRefresh });
        } catch (e) {
          log.warn(`a post-load check failed: ${redact((e as Error).message, secrets)}`);
        }
      }
      phaseDone('checks');
      record.finished_at = iso(clock.now());
      store.finishHistory(record);
      log.info(`sync ${record.status}: ${record.rows} rows loaded into ${record.tables.map((t) => t.name).join(', ') || 'no table'}${rejected ? `; ${rejected} malformed row(s) quarantined` : ''}`);
      void events.emit('sync_completed', {
        source: record.source,
        sync_id: record.id,
        rows: record.rows,
        tables: record.tables,
        duration_seconds: Math.round((Date.now() - startedMs) / 100) / 10,
        trigger: record.trigger,
        ...payloadSchedule,
        ...(rejected ? { rejected_rows: rejected } : {}),
      });
      void events.emit('freshness_update', { source: record.source });
    } catch (e) {
      if (session) await session.discard(true).catch((err) => this.d.log.error({ err }, 'could not drop staging tables'));
      store.dropPending(record.id);
      const cancelled = controller.signal.aborted;
      record.status = cancelled ? 'cancelled' : 'failed';
      record.error = redact(cancelled ? 'cancelled: the sync was stopped before its data was swapped in; the previous data was kept' : errorMessage(e), secrets);
      record.finished_at = iso(clock.now());
      store.finishHistory(record);
      log.error(`sync ${record.status}: ${record.error}`);
      void events.emit('sync_failed', { source: record.source, sync_id: record.id, error: record.error, trigger: record.trigger, ...payloadSchedule });
    }
    return { ...record };
  }

  /**
   * A sync a worker runs: the server records it, waits for the queue's outcome, then promotes the
   * cursor state the worker reached, runs the post-load checks and emits the same events as a local sync.
   */
  private async executeRemote(job: Job, executor: SyncExecutor, resumed?: SyncJob): Promise<SyncRecord> {
    const { record, controller, opts } = job;
    const { store, events, clock } = this.d;
    const fullRefresh = !!opts.fullRefresh;
    const log = this.sourceLog(record.source, record.id, new Set());
    const payloadSchedule = record.schedule ? { schedule: record.schedule } : {};
    void events.emit('sync_started', { source: record.source, sync_id: record.id, trigger: record.trigger, ...payloadSchedule });
    log.info(resumed ? 'the server restarted: waiting again for the worker running this sync' : `sync queued for a worker (trigger ${record.trigger}${fullRefresh ? ', full refresh' : ''})`);
    const reports = {
      taken: (worker: string) => log.info(`sync taken by worker ${worker}`),
      // the worker's progress, published here as a local sync's: /ws and the UI see no difference
      progress: (p: Omit<SyncProgressEvent, 'source' | 'sync_id'>) => {
        record.rows = p.rows;
        void events.emit('sync_progress', { ...p, source: record.source, sync_id: record.id });
      },
    };
    try {
      const sent: SyncJob = resumed ?? {
        sync_id: record.id,
        source: record.source,
        full_refresh: fullRefresh,
        ...(opts.startDate ? { start_date: opts.startDate } : {}),
        ...(opts.endDate ? { end_date: opts.endDate } : {}),
        trigger: record.trigger,
        schedule: record.schedule,
        state: fullRefresh ? {} : store.state(record.source),
        last_sync_id: store.lastSuccess(record.source)?.id ?? null,
      };
      const result = resumed ? await executor.resume(sent, controller.signal, reports) : await executor.execute(sent, controller.signal, reports);
      record.started_at = result.started_at;
      record.rows = result.rows;
      record.tables = result.tables;
      record.error = result.error;
      const rebuilt = result.rebuilt ? ' (rebuilt in full: its local copy was of another sync)' : '';
      if (result.status === 'succeeded' || result.status === 'empty') {
        const at = iso(clock.now());
        store.writePending(record.id, record.source, new Map(Object.entries(result.state)));
        store.promotePending(record.id, at, fullRefresh || result.rebuilt);
        for (const t of result.observed) store.observeTable(record.source, t, at);
        record.status = result.status;
        for (const hook of this.hooks) {
          try {
            await hook({ source: record.source, syncId: record.id, tables: record.tables, fullRefresh });
          } catch (e) {
            log.warn(`a post-load check failed: ${(e as Error).message}`);
          }
        }
        record.finished_at = result.finished_at;
        store.finishHistory(record);
        log.info(`sync ${record.status} on worker ${result.worker}${rebuilt}: ${record.rows} rows loaded into ${record.tables.map((t) => t.name).join(', ') || 'no table'}`);
        const rejected = record.tables.reduce((n, t) => n + (t.rejected_rows ?? 0), 0);
        void events.emit('sync_completed', {
          source: record.source,
          sync_id: record.id,
          rows: record.rows,
          tables: record.tables,
          duration_seconds: Math.round((Date.parse(result.finished_at) - Date.parse(result.started_at)) / 100) / 10,
          trigger: record.trigger,
          ...payloadSchedule,
          ...(rejected ? { rejected_rows: rejected } : {}),
        });
        void events.emit('freshness_update', { source: record.source });
      } else {
        record.status = result.status;
        record.error = result.error ?? `the worker reported ${result.status}`;
        record.finished_at = result.finished_at;
        store.finishHistory(record);
        log.error(`sync ${record.status} on worker ${result.worker}: ${record.error}`);
        void events.emit('sync_failed', { source: record.source, sync_id: record.id, error: record.error, trigger: record.trigger, ...payloadSchedule });
      }
    } catch (e) {
      record.status = controller.signal.aborted ? 'cancelled' : 'failed';
      record.error = errorMessage(e);
      record.finished_at = iso(clock.now());
      store.finishHistory(record);
      log.error(`sync ${record.status}: ${record.error}`);
      void events.emit('sync_failed', { source: record.source, sync_id: record.id, error: record.error, trigger: record.trigger, ...payloadSchedule });
    }
    return { ...record };
  }

  /** the resources to read: the config's `resources` list, the source's defaults, or what discover finds */
  private async resources(def: SourceDefinition, ctx: Parameters<SourceDefinition['discover']>[0], block: Record<string, unknown>): Promise<ResourceSpec[]> {
    if (!def.resources?.length || def.discoverSelects) return def.discover(ctx);
    const wanted = Array.isArray(block.resources) ? (block.resources as string[]) : def.defaultResources;
    if (!wanted?.length) return def.resources;
    const unknown = wanted.filter((w) => !def.resources!.some((r) => r.name === w));
    if (unknown.length) throw new SourceError('unknown_resource', `Unknown resource(s) ${unknown.join(', ')} for a ${def.type} source; available: ${def.resources.map((r) => r.name).join(', ')}.`);
    return def.resources.filter((r) => wanted.includes(r.name));
  }

  /** waits for running syncs and a pending publish (shutdown, tests) */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.jobs.values()].map((j) => j.done));
    await this.d.warehouse.servingCopySettled();
  }

  async stop(): Promise<void> {
    for (const j of this.jobs.values()) j.controller.abort(new SourceError('cancelled', 'Basin is shutting down'));
    await this.idle();
  }
}

function errorMessage(e: unknown): string {
  if (e instanceof SourceError || e instanceof BasinError) return e.message;
  if (e instanceof Error) return e.message.split('\n')[0]!;
  return String(e);
}
