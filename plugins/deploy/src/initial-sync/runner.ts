import { errors, type Clock, type EventBus } from '@basin/core';
import type { SyncEngine } from '@basin/plugin-sync/contract';

export type SourceState = 'pending' | 'syncing' | 'succeeded' | 'failed' | 'empty' | 'skipped' | 'cancelled';
export type RunState = 'idle' | 'running' | 'completed' | 'completed_with_errors' | 'cancelled' | 'interrupted';

export interface SourceProgress {
  name: string;
  state: SourceState;
  rows: number;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

export interface InitialSyncStatus {
  state: RunState;
  started_at: string | null;
  finished_at: string | null;
  started_by: string | null;
  current: string | null;
  sources: SourceProgress[];
  done: number;
  total: number;
}

/**
 * The first sync of a freshly deployed server: every enabled source, one after another, with progress
 * per source. Skip cancels the source syncing now and goes on with the next; cancel stops the whole
 * run. Emits initial_sync_* events, which /ws forwards to admins.
 */
export class InitialSync {
  private status: InitialSyncStatus = { state: 'idle', started_at: null, finished_at: null, started_by: null, current: null, sources: [], done: 0, total: 0 };
  private currentSyncId: string | null = null;
  private skipRequested = false;
  private cancelRequested = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly engine: () => SyncEngine | undefined,
    private readonly sources: () => string[],
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly persist?: { load(): InitialSyncStatus | null; save(s: InitialSyncStatus): void },
  ) {
    const last = persist?.load();
    if (last) {
      this.status = last;
      // the server stopped while it ran: say so rather than show it running forever
      if (last.state === 'running') {
        this.status.state = 'interrupted';
        this.status.current = null;
        for (const src of this.status.sources) {
          if (src.state === 'syncing') Object.assign(src, { state: 'failed', error: 'interrupted: the server stopped during this sync' });
          else if (src.state === 'pending') src.state = 'cancelled';
        }
        persist!.save(this.status);
      }
    }
  }

  get(): InitialSyncStatus {
    const s = structuredClone(this.status);
    // live row counts of the source syncing now
    const cur = s.sources.find((x) => x.state === 'syncing');
    const rec = this.currentSyncId ? this.engine()?.get(this.currentSyncId) : undefined;
    if (cur && rec) cur.rows = rec.rows ?? 0;
    return s;
  }

  get running(): boolean {
    return this.status.state === 'running';
  }

  start(by: string | null, only?: string[]): InitialSyncStatus {
    if (this.running) throw errors.conflict('initial_sync_running', 'The initial sync is already running; see GET /api/initial-sync/status.');
    const engine = this.engine();
    if (!engine) throw errors.badRequest('The sync plugin is not installed, so sources cannot be synced.', undefined, 'sync_unavailable');
    const all = this.sources();
    const unknown = (only ?? []).filter((s) => !all.includes(s));
    if (unknown.length) throw errors.badRequest(`Unknown or disabled source(s): ${unknown.join(', ')}.`, { unknown }, 'unknown_source');
    const names = only?.length ? all.filter((s) => only.includes(s)) : all;
    const now = this.clock.now().toISOString();
    this.status = {
      state: 'running',
      started_at: now,
      finished_at: null,
      started_by: by,
      current: null,
      sources: names.map((name) => ({ name, state: 'pending', rows: 0, started_at: null, finished_at: null, error: null })),
      done: 0,
      total: names.length,
    };
    this.skipRequested = false;
    this.cancelRequested = false;
    this.persist?.save(this.status);
    void this.events.emit('initial_sync_started', { sources: names });
    this.loop = this.run(engine).finally(() => (this.loop = null));
    return this.get();
  }

  /** resolves when the current run has finished (tests, shutdown) */
  async idle(): Promise<void> {
    await this.loop;
  }

  skipCurrent(): { skipped: string } {
    const cur = this.status.sources.find((s) => s.state === 'syncing');
    if (!this.running || !cur) throw errors.conflict('initial_sync_not_running', 'No source is syncing in the initial sync right now.');
    this.skipRequested = true;
    if (this.currentSyncId) this.engine()?.cancel(this.currentSyncId);
    return { skipped: cur.name };
  }

  cancel(): InitialSyncStatus {
    if (!this.running) throw errors.conflict('initial_sync_not_running', 'The initial sync is not running.');
    this.cancelRequested = true;
    if (this.currentSyncId) this.engine()?.cancel(this.currentSyncId);
    return this.get();
  }

  private async run(engine: SyncEngine): Promise<void> {
    for (const src of this.status.sources) {
      if (this.cancelRequested) break;
      src.state = 'syncing';
      src.started_at = this.clock.now().toISOString();
      this.status.current = src.name;
      this.skipRequested = false;
      this.progress(src);
      try {
        if (engine.isRunning(src.name)) throw new Error(`a sync of ${src.name} is already running`);
        const rec = engine.start(src.name, { trigger: 'initial' });
        this.currentSyncId = rec.id;
        const done = await engine.wait(rec.id);
        src.rows = done.rows ?? 0;
        src.state = this.cancelRequested ? 'cancelled' : this.skipRequested ? 'skipped' : done.status === 'running' ? 'failed' : done.status;
        src.error = src.state === 'failed' ? (done.error ?? 'failed') : null;
      } catch (e) {
        src.state = this.cancelRequested ? 'cancelled' : this.skipRequested ? 'skipped' : 'failed';
        src.error = src.state === 'failed' ? (e as Error).message : null;
      }
      this.currentSyncId = null;
      src.finished_at = this.clock.now().toISOString();
      this.status.done++;
      this.progress(src);
    }
    for (const s of this.status.sources) if (s.state === 'pending') s.state = 'cancelled';
    this.status.current = null;
    this.status.finished_at = this.clock.now().toISOString();
    this.status.state = this.cancelRequested ? 'cancelled' : this.status.sources.some((s) => s.state === 'failed') ? 'completed_with_errors' : 'completed';
    this.persist?.save(this.status);
    void this.events.emit('initial_sync_completed', { state: this.status.state, sources: this.status.sources.map((s) => ({ name: s.name, state: s.state, rows: s.rows })) });
  }

  private progress(s: SourceProgress): void {
    this.persist?.save(this.status);
    void this.events.emit('initial_sync_progress', { source: s.name, state: s.state, rows: s.rows, done: this.status.done, total: this.status.total, error: s.error });
  }
}
