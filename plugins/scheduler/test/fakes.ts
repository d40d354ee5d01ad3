import { BasinError, type Clock, type EventBus } from '@basin/core';
import type { SyncEngine, SyncOptions, SyncRecord } from '@basin/plugin-sync/contract';
import type { TxRunner, TxRunRecord } from '@basin/plugin-transform/contract';

/**
 * A sync engine honouring the cross-plugin contract (start/wait/cancel, 409 while a source syncs,
 * sync_started/sync_completed/sync_failed on the bus). By default a sync stays running until the
 * test calls finish(); `auto` finishes every sync at once with the given outcome.
 */
export class FakeSyncEngine implements SyncEngine {
  readonly records = new Map<string, SyncRecord>();
  readonly started: Array<{ source: string; opts: SyncOptions | undefined }> = [];
  readonly cancelled: string[] = [];
  private readonly waiters = new Map<string, Array<(r: SyncRecord) => void>>();
  private n = 0;
  auto: ((source: string) => { rows?: number; error?: string }) | null = null;

  constructor(private readonly events: EventBus, private readonly clock: Clock, readonly known: string[] = ['orders', 'customers', 'events']) {}

  start(source: string, opts?: SyncOptions): SyncRecord {
    if (!this.known.includes(source)) throw new BasinError(404, 'not_found', `Source "${source}" was not found.`);
    if (this.isRunning(source)) throw new BasinError(409, 'sync_in_progress', `Source "${source}" is already syncing.`);
    const rec: SyncRecord = { id: `sync_${++this.n}`, source, status: 'running', started_at: this.clock.now().toISOString(), finished_at: null, rows: 0, tables: [], error: null, trigger: opts?.trigger ?? 'api', schedule: opts?.schedule ?? null };
    this.records.set(rec.id, rec);
    this.started.push({ source, opts });
    void this.events.emit('sync_started', { source, sync_id: rec.id, trigger: opts?.trigger ?? 'api', schedule: opts?.schedule ?? null });
    if (this.auto) {
      const outcome = this.auto(source);
      queueMicrotask(() => this.finish(source, outcome));
    }
    return { ...rec };
  }

  async run(source: string, opts?: SyncOptions): Promise<SyncRecord> {
    return this.wait(this.start(source, opts).id);
  }

  wait(id: string): Promise<SyncRecord> {
    const rec = this.records.get(id);
    if (!rec) return Promise.reject(new Error(`unknown sync ${id}`));
    if (rec.status !== 'running') return Promise.resolve({ ...rec });
    return new Promise((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]));
  }

  get(id: string): SyncRecord | undefined {
    return this.records.get(id);
  }

  isRunning(source: string): boolean {
    return [...this.records.values()].some((r) => r.source === source && r.status === 'running');
  }

  cancel(id: string): boolean {
    const rec = this.records.get(id);
    if (!rec || rec.status !== 'running') return false;
    this.cancelled.push(id);
    this.settle(rec, 'cancelled', 0, 'cancelled');
    return true;
  }

  /** finishes the running sync of a source */
  finish(source: string, outcome: { rows?: number; error?: string } = {}): void {
    const rec = [...this.records.values()].find((r) => r.source === source && r.status === 'running');
    if (!rec) throw new Error(`no running sync for ${source}`);
    this.settle(rec, outcome.error ? 'failed' : 'succeeded', outcome.rows ?? 0, outcome.error ?? null);
  }

  private settle(rec: SyncRecord, status: SyncRecord['status'], rows: number, error: string | null): void {
    rec.status = status;
    rec.rows = rows;
    rec.error = error;
    rec.finished_at = this.clock.now().toISOString();
    const opts = this.started.find((s) => s.source === rec.source)?.opts;
    if (status === 'succeeded') {
      void this.events.emit('sync_completed', { source: rec.source, sync_id: rec.id, rows, tables: [], duration_seconds: 0, trigger: opts?.trigger ?? 'api', schedule: opts?.schedule ?? null });
    } else if (status === 'failed') {
      void this.events.emit('sync_failed', { source: rec.source, sync_id: rec.id, error: error ?? 'failed', trigger: opts?.trigger ?? 'api', schedule: opts?.schedule ?? null });
    }
    for (const w of this.waiters.get(rec.id) ?? []) w({ ...rec });
    this.waiters.delete(rec.id);
  }
}

/** A dbt runner honouring the contract: records calls, finishes at once (or fails when told). */
export class FakeTxRunner implements TxRunner {
  readonly calls: Array<Parameters<TxRunner['run']>[0]> = [];
  fail: string | null = null;
  private n = 0;
  async run(opts: Parameters<TxRunner['run']>[0]): Promise<TxRunRecord> {
    this.calls.push(opts);
    const failed = this.fail;
    const at = new Date(0).toISOString();
    return {
      id: `tx_${++this.n}`, status: failed ? 'failed' : 'succeeded', command: opts.command ?? 'run', selector: opts.select ?? null, excluded_sources: opts.excludeSources ?? [],
      queued_at: at, started_at: at, finished_at: at, trigger: opts.trigger ?? 'api', schedule: opts.schedule ?? null, notes: [], docs_generated: false, error: failed,
      models: [{ name: 'stg_orders', status: failed ? 'error' : 'success', execution_time: null, rows_affected: 7, error: failed }],
    };
  }
  cancel(): boolean {
    return false;
  }
}

/** Lets pending promise callbacks (job completions, bus listeners) run. */
export async function flush(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise((r) => setImmediate(r));
}
