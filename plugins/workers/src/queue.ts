import crypto from 'node:crypto';
import type { Logger } from '@basin/core';
import type { SyncExecutor, SyncJob, SyncJobReports, SyncJobResult } from '@basin/plugin-sync/contract';
import PgBoss from 'pg-boss';
import type { WorkersSection } from './config.js';
import type { queueConnection } from './connection.js';
import { SYNC_QUEUE } from './contract.js';
import { RunControl } from './run-control.js';

/** how often the server looks at a queued job's state and its worker's reports */
const POLL_MS = 300;
/** a cancelled sync whose worker has not reported for this long is cancelled in the queue without it */
const SILENT_WORKER_SECONDS = 15;
const SERVER_STOPPED =
  'the server stopped while this sync was queued or running on a worker: the worker still runs it, but its outcome is not recorded here; the next sync of the source rebuilds it in full';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sync job queue: pg-boss tables in `queue_schema` of a PostgreSQL database, plus `sync_run`
 * (run-control.ts) for progress, heartbeats and cancel requests while a worker runs a sync.
 *
 * One sync of a source at a time, at the queue (not only in the server's memory): the queue's policy is
 * pg-boss's `stately` with the source's name as singleton key. pg-boss enforces it with partial unique
 * indexes on its job table: at most one job of a key queued (a second send returns null) and at most one
 * active (a worker's fetch that would activate a second fails and takes nothing). The server also
 * refuses to send while the queue holds an unfinished job of the source (sent before a restart, or by
 * another server): a job queued behind an active one of its key would hold up every job behind it,
 * because pg-boss fetches the oldest job first and a failed fetch takes none.
 *
 * A job whose worker dies stays active until `job_timeout_seconds`, then pg-boss fails it (or retries
 * it, `retry_limit`) and the server records that.
 */
export class SyncQueue {
  private boss: Promise<{ boss: PgBoss; control: RunControl }> | null = null;
  /** set once close() starts: a stopping server leaves queued and running jobs to the workers */
  private closing = false;

  constructor(
    private readonly connection: ReturnType<typeof queueConnection>,
    private readonly section: WorkersSection,
    private readonly log: Logger,
  ) {}

  /** connects, creates or upgrades the queue's tables and the queue (on first use) */
  open(): Promise<{ boss: PgBoss; control: RunControl }> {
    this.boss ??= retryOnSetupRace(() => this.connect());
    this.boss.catch(() => (this.boss = null));
    return this.boss;
  }

  /** one attempt at open(); a failed attempt stops its pool, so a process that gives up can exit */
  private async connect(): Promise<{ boss: PgBoss; control: RunControl }> {
    const boss = new PgBoss({
      ...this.connection,
      schema: this.section.queue_schema,
      application_name: 'basin-queue',
      schedule: false,
      maintenanceIntervalSeconds: this.section.supervise_interval_seconds,
    });
    // pg-boss reports connection trouble here; the message only (a URL could be in a stack's details)
    boss.on('error', (err) => this.log.error({ error: err.message }, 'job queue error'));
    try {
      await boss.start();
      // updateQueue sets every option it is not given back to its default (policy: standard), so the
      // policy is always passed: a queue updated without it would stamp new jobs without the singleton
      const options = { name: SYNC_QUEUE, policy: 'stately', retryLimit: this.section.retry_limit, expireInSeconds: this.section.job_timeout_seconds } as const;
      if (!(await boss.getQueue(SYNC_QUEUE))) await boss.createQueue(SYNC_QUEUE, options);
      else await boss.updateQueue(SYNC_QUEUE, options);
      const control = new RunControl(boss.getDb(), this.section.queue_schema);
      await control.ensure();
      return { boss, control };
    } catch (e) {
      await boss.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
      throw e;
    }
  }

  /** the server's side: send a job, relay its worker's progress, wait for its outcome */
  executor(): SyncExecutor {
    return {
      execute: (job, signal, reports) => this.execute(job, signal, reports),
      unfinished: () => this.unfinished(),
      resume: async (job, signal, reports) => {
        const { control } = await this.open();
        const jobId = await control.jobOf(job.sync_id);
        if (!jobId) throw new Error('the sync job is no longer known to the queue; the previous data was kept');
        return this.wait(jobId, job, signal, reports ?? {});
      },
    };
  }

  /** the jobs of the syncs whose `sync_run` row a stopped server left (it removes the row on an outcome) */
  private async unfinished(): Promise<SyncJob[]> {
    const { boss, control } = await this.open();
    const jobs: SyncJob[] = [];
    for (const run of await control.left()) {
      const j = await boss.getJobById<SyncJob>(SYNC_QUEUE, run.job_id, { includeArchive: true });
      if (j && j.data.sync_id === run.sync_id) jobs.push(j.data);
      else await control.remove(run.sync_id);
    }
    return jobs;
  }

  private async execute(job: SyncJob, signal: AbortSignal, reports: SyncJobReports = {}): Promise<SyncJobResult> {
    const { boss, control } = await this.open();
    const unfinished = await control.unfinishedJob(SYNC_QUEUE, job.source);
    if (unfinished) {
      throw new Error(`a sync of "${job.source}" is still ${unfinished.state === 'active' ? 'running on a worker' : 'queued'} (sent before the server restarted, or by another server); wait for it to end, then sync again`);
    }
    // the run's row exists before a worker can take the job, so its first heartbeat finds it
    const id = crypto.randomUUID();
    await control.register(job.sync_id, id, job.source);
    const sent = await boss.send(SYNC_QUEUE, job, { id, singletonKey: job.source });
    if (!sent) {
      await control.remove(job.sync_id);
      throw new Error(`the job queue already holds a sync of "${job.source}"; wait for it to end, then sync again`);
    }
    return this.wait(id, job, signal, reports);
  }

  /** relays the worker's reports and the cancel request until the job's outcome */
  private async wait(id: string, job: SyncJob, signal: AbortSignal, reports: SyncJobReports): Promise<SyncJobResult> {
    const { boss, control } = await this.open();
    const queuedAt = new Date().toISOString();
    const outcome = (status: SyncJobResult['status'], error: string, startedAt?: Date | null): SyncJobResult => ({
      status,
      rows: 0,
      tables: [],
      error,
      started_at: startedAt ? new Date(startedAt).toISOString() : queuedAt,
      finished_at: new Date().toISOString(),
      state: {},
      observed: [],
      worker: 'none',
      rebuilt: false,
    });
    let seq = 0;
    let taken = false;
    let cancelAsked = false;
    try {
      for (;;) {
        if (this.closing) return outcome('failed', SERVER_STOPPED);
        if (signal.aborted && !cancelAsked) {
          // asked before looking at the job: a worker that takes it meanwhile sees the request first
          cancelAsked = true;
          await control.requestCancel(job.sync_id);
          const j = await boss.getJobById(SYNC_QUEUE, id);
          if (j && (j.state === 'created' || j.state === 'retry')) {
            await boss.cancel(SYNC_QUEUE, id);
            return outcome('cancelled', 'cancelled before a worker took it; the previous data was kept');
          }
        }
        const j = await boss.getJobById<SyncJob>(SYNC_QUEUE, id, { includeArchive: true });
        if (!j) return outcome('failed', 'the sync job left the queue without an outcome (deleted by hand?); the previous data was kept');
        if (j.state === 'completed') return j.output as SyncJobResult;
        if (j.state === 'cancelled') return outcome('cancelled', 'cancelled in the job queue; the previous data was kept', j.startedOn);
        if (j.state === 'failed') return outcome('failed', failureText(j.output, this.section), j.startedOn);
        const run = await control.view(job.sync_id);
        if (run?.worker && !taken) {
          taken = true;
          reports.taken?.(run.worker);
        }
        if (run?.progress && run.progress_seq !== seq) {
          seq = run.progress_seq;
          reports.progress?.(run.progress);
        }
        if (cancelAsked && j.state === 'active' && (run?.silent_seconds ?? Infinity) > SILENT_WORKER_SECONDS) {
          // its worker died (or lost the database): nothing it staged was swapped in
          await boss.cancel(SYNC_QUEUE, id);
          return outcome('cancelled', `cancelled; the worker running it had not answered for ${SILENT_WORKER_SECONDS}s; the previous data was kept`, j.startedOn);
        }
        await sleep(POLL_MS);
      }
    } catch (e) {
      // the queue's connections close under a wait loop when the server stops
      if (this.closing) return outcome('failed', SERVER_STOPPED);
      throw e;
    } finally {
      if (!this.closing) await control.remove(job.sync_id).catch(() => undefined);
    }
  }

  /** the worker's side: take jobs one at a time per slot and answer with the handler's outcome */
  async work(concurrency: number, handler: (job: SyncJob, control: RunControl, jobId: string) => Promise<SyncJobResult>): Promise<void> {
    const { boss, control } = await this.open();
    for (let i = 0; i < concurrency; i++) {
      await boss.work<SyncJob>(SYNC_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => handler(job!.data, control, job!.id));
    }
  }

  /** stops taking jobs; with graceful, waits for the running ones to finish first */
  async close(graceful = true): Promise<void> {
    this.closing = true;
    const pending = this.boss;
    this.boss = null;
    if (!pending) return;
    const opened = await pending.catch(() => null);
    await opened?.boss.stop({ graceful, wait: true, timeout: graceful ? 3_600_000 : 1000 });
  }
}

/** why the queue failed a job, as the sync history says it */
function failureText(output: unknown, section: WorkersSection): string {
  const o = (output ?? {}) as { message?: string; value?: { message?: string } };
  const message = o.message ?? o.value?.message ?? 'unknown error';
  // the supervisor's expiry of a job whose worker vanished, or the worker's own handler timeout
  if (message.includes('timeout in active state') || message.includes('handler execution exceeded')) {
    return `the worker running this sync stopped or took longer than workers.job_timeout_seconds (${section.job_timeout_seconds}s); the previous data was kept. Look at the worker's log, then sync again.`;
  }
  return `the worker failed: ${message}; the previous data was kept`;
}

/**
 * Whether a failed setup lost a race with another process setting up the same queue at the same time:
 * PostgreSQL chose it as a deadlock's victim (40P01), or its `CREATE ... IF NOT EXISTS` met the other's
 * uncommitted one in a system catalog's unique index (23505 on pg_type_typname_nsp_index and the like).
 * Workers and the server that start together create or update the queue's tables and options at once:
 * fresh-clone test runs saw one of two workers fail its start with "deadlock detected", and another
 * with 'duplicate key value violates unique constraint "pg_type_typname_nsp_index"'.
 */
export function lostSetupRace(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string; message?: string };
  if (err.code === '40P01') return true;
  return err.code === '23505' && /^pg_\w+_index$/.test(err.constraint ?? /unique constraint "([^"]+)"/.exec(err.message ?? '')?.[1] ?? '');
}

/** Runs `attempt` again (after a short random wait) while it loses a setup race, at most `tries` times. */
async function retryOnSetupRace<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      if (!lostSetupRace(e) || i >= tries) throw e;
      await new Promise((r) => setTimeout(r, 50 * i + Math.random() * 100));
    }
  }
}
