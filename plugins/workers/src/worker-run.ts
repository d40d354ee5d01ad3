import type { EventBus } from '@basin/core';
import type { SyncJob, SyncJobResult, SyncRemote } from '@basin/plugin-sync/contract';
import { SYNC_QUEUE } from './contract.js';
import type { RunControl, RunProgress } from './run-control.js';

/** how often a worker reports progress and a heartbeat, and looks for a cancel request */
export const HEARTBEAT_MS = 500;

/**
 * Runs one job in a worker while reporting to the server through the queue's `sync_run` table: the
 * sync's `sync_progress` events of this process (the same payloads the server publishes on `/ws`) and
 * a heartbeat every HEARTBEAT_MS, whose answer carries the server's cancel request, or says the queue
 * ended the job (timed out). Either aborts the sync's signal: the engine stops at its next batch, drops
 * the staged tables and reports `cancelled`, so the previous tables and cursor stay as they were.
 */
export async function runReported(opts: { job: SyncJob; jobId: string; who: string; control: RunControl; events: EventBus; remote: SyncRemote; onStop?: (why: 'cancel' | 'ended') => void }): Promise<SyncJobResult> {
  const { job, who, control } = opts;
  const controller = new AbortController();
  let latest: RunProgress | null = null;
  const unsubscribe = opts.events.on('sync_progress', (p) => {
    if (p.sync_id !== job.sync_id) return;
    const { source: _source, sync_id: _id, ...progress } = p;
    latest = progress;
  });
  let beating: Promise<void> | null = null;
  const beat = async () => {
    const progress = latest;
    latest = null;
    // a database hiccup loses nothing: a progress not sent goes with the next beat (unless a newer one came)
    const answer = await control.heartbeat(job.sync_id, who, progress, SYNC_QUEUE, opts.jobId).catch(() => {
      latest ??= progress;
      return null;
    });
    if (answer?.stop && !controller.signal.aborted) {
      opts.onStop?.(answer.stop);
      controller.abort(new Error(answer.stop === 'cancel' ? 'the sync was cancelled' : 'the job queue ended this job'));
    }
  };
  // the first beat before the run: a sync cancelled while queued stops before it reads anything
  await beat();
  const timer = setInterval(() => {
    beating ??= beat().finally(() => (beating = null));
  }, HEARTBEAT_MS);
  try {
    return await opts.remote.runJob(job, who, controller.signal);
  } finally {
    clearInterval(timer);
    unsubscribe();
    await beating;
  }
}
