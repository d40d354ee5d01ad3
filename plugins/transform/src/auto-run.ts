import type { Logger } from '@basin/core';
import type { TxRunOptions, TxRunRecord } from './types.js';

/** Schedules `fn` after `ms`; returns a cancel function. Tests inject a manual one. */
export type SetTimer = (fn: () => void, ms: number) => () => void;
export const realTimer: SetTimer = (fn, ms) => {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
};

export interface AutoRunDeps {
  run: (opts: TxRunOptions) => Promise<TxRunRecord>;
  coalesceSeconds: () => number;
  /** sources with an attention flag (schema drift): their models are excluded */
  attentionSources: () => Promise<Set<string>>;
  timer: () => SetTimer;
  log: Logger;
}

/**
 * Runs dbt after syncs. The first sync to finish opens a window of `tx_coalesce_seconds`; every sync
 * finishing inside it joins the same run (a fixed window, so a steady stream of syncs cannot postpone
 * the run forever). Flagged sources are excluded by selector; everything else runs.
 */
export class AutoRunCoalescer {
  private pending = new Map<string, { schedule: string | null; notes: string[] }>();
  private cancelTimer: (() => void) | null = null;
  private flushing: Promise<TxRunRecord | null> | null = null;

  constructor(private readonly d: AutoRunDeps) {}

  /** Sources waiting for the next auto run. */
  get waiting(): string[] {
    return [...this.pending.keys()].sort();
  }

  request(source: string, info: { schedule?: string | null; notes?: string[] } = {}): void {
    const prev = this.pending.get(source);
    this.pending.set(source, { schedule: info.schedule ?? prev?.schedule ?? null, notes: [...(prev?.notes ?? []), ...(info.notes ?? [])] });
    if (this.cancelTimer) return;
    const ms = Math.max(0, this.d.coalesceSeconds()) * 1000;
    this.cancelTimer = this.d.timer()(() => {
      this.cancelTimer = null;
      void this.flush();
    }, ms);
  }

  /** Starts the run for everything pending now (the timer calls it; tests and shutdown may too). */
  async flush(): Promise<TxRunRecord | null> {
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (!this.pending.size) return null;
    const batch = this.pending;
    this.pending = new Map();
    const run = (async () => {
      let flagged = new Set<string>();
      try {
        flagged = await this.d.attentionSources();
      } catch (e) {
        this.d.log.warn({ err: e }, 'could not read attention flags; running every model');
      }
      const sources = [...batch.keys()].sort();
      const schedules = [...new Set([...batch.values()].map((b) => b.schedule).filter((s): s is string => !!s))];
      const notes = [...batch.values()].flatMap((b) => b.notes);
      if (flagged.size) notes.push(`excluded for attention flags: ${[...flagged].sort().join(', ')}`);
      notes.unshift(`after sync of ${sources.join(', ')}`);
      return this.d.run({ command: 'run', trigger: 'sync', schedule: schedules.length === 1 ? schedules[0] : null, excludeSources: [...flagged], notes });
    })();
    this.flushing = run;
    try {
      return await run;
    } finally {
      if (this.flushing === run) this.flushing = null;
    }
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }
}
