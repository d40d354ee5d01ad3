import type { Logger } from '@basin/core';
import type { SyncExecutor, SyncJob, SyncJobResult } from '@basin/plugin-sync/contract';
import PgBoss from 'pg-boss';
import type { WorkersSection } from './config.js';
import type { queueConnection } from './connection.js';
import { SYNC_QUEUE } from './contract.js';

/** how often the server looks at a queued job's state (the queue keeps the outcome as the job's output) */
const POLL_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sync job queue: pg-boss tables in `queue_schema` of a PostgreSQL database. The queue's policy is
 * `singleton` with the source's name as the key: however many servers or workers, one sync of a source
 * is active at a time (another waits queued). A job whose worker dies stays active until
 * `job_timeout_seconds`, then pg-boss fails it (or retries it, `retry_limit`) and the server records that.
 */
export class SyncQueue {
  private boss: Promise<PgBoss> | null = null;

  constructor(
    private readonly connection: ReturnType<typeof queueConnection>,
    private readonly section: WorkersSection,
    private readonly log: Logger,
  ) {}

  /** connects, creates or upgrades the queue's tables and the queue (on first use) */
  open(): Promise<PgBoss> {
    this.boss ??= (async () => {
      const boss = new PgBoss({
        ...this.connection,
        schema: this.section.queue_schema,
        application_name: 'basin-queue',
        schedule: false,
        maintenanceIntervalSeconds: this.section.supervise_interval_seconds,
      });
      // pg-boss reports connection trouble here; the message only (a URL could be in a stack's details)
      boss.on('error', (err) => this.log.error({ error: err.message }, 'job queue error'));
      await boss.start();
      if (!(await boss.getQueue(SYNC_QUEUE))) {
        await boss.createQueue(SYNC_QUEUE, { name: SYNC_QUEUE, policy: 'singleton', retryLimit: this.section.retry_limit, expireInSeconds: this.section.job_timeout_seconds });
      } else {
        await boss.updateQueue(SYNC_QUEUE, { name: SYNC_QUEUE, retryLimit: this.section.retry_limit, expireInSeconds: this.section.job_timeout_seconds });
      }
      return boss;
    })();
    this.boss.catch(() => (this.boss = null));
    return this.boss;
  }

  /** the server's side: send a job, wait for its outcome */
  executor(): SyncExecutor {
    return {
      execute: (job, signal) => this.execute(job, signal),
      cancel: async (syncId) => {
        const boss = await this.open();
        const id = this.sent.get(syncId);
        const j = id ? await boss.getJobById(SYNC_QUEUE, id) : null;
        if (!j || (j.state !== 'created' && j.state !== 'retry')) return false;
        await boss.cancel(SYNC_QUEUE, j.id);
        return true;
      },
    };
  }

  /** the queue's job id of each sync this server waits for */
  private readonly sent = new Map<string, string>();

  private async execute(job: SyncJob, signal: AbortSignal): Promise<SyncJobResult> {
    const boss = await this.open();
    const id = await boss.send(SYNC_QUEUE, job, { singletonKey: job.source });
    if (!id) throw new Error(`The job queue refused a sync of "${job.source}" (one is already queued); retry once it ran.`);
    this.sent.set(job.sync_id, id);
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
    try {
      for (;;) {
        if (signal.aborted) {
          await boss.cancel(SYNC_QUEUE, id);
          return outcome('cancelled', 'cancelled: the sync was stopped before a worker swapped its data in; the previous data was kept');
        }
        const j = await boss.getJobById<SyncJob>(SYNC_QUEUE, id, { includeArchive: true });
        if (!j) return outcome('failed', 'the sync job left the queue without an outcome (deleted by hand?); the previous data was kept');
        if (j.state === 'completed') return j.output as SyncJobResult;
        if (j.state === 'cancelled') return outcome('cancelled', 'cancelled in the job queue; the previous data was kept', j.startedOn);
        if (j.state === 'failed') return outcome('failed', failureText(j.output, this.section), j.startedOn);
        await sleep(POLL_MS);
      }
    } finally {
      this.sent.delete(job.sync_id);
    }
  }

  /** the worker's side: take jobs one at a time per slot and answer with the handler's outcome */
  async work(concurrency: number, handler: (job: SyncJob) => Promise<SyncJobResult>): Promise<void> {
    const boss = await this.open();
    for (let i = 0; i < concurrency; i++) {
      await boss.work<SyncJob>(SYNC_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => handler(job!.data));
    }
  }

  /** stops taking jobs; with graceful, waits for the running ones to finish first */
  async close(graceful = true): Promise<void> {
    const pending = this.boss;
    this.boss = null;
    if (!pending) return;
    const boss = await pending.catch(() => null);
    await boss?.stop({ graceful, wait: true, timeout: graceful ? 3_600_000 : 1000 });
  }
}

/** why the queue failed a job, as the sync history says it */
function failureText(output: unknown, section: WorkersSection): string {
  const o = (output ?? {}) as { message?: string; value?: { message?: string } };
  const message = o.message ?? o.value?.message ?? 'unknown error';
  if (message.includes('timeout in active state')) {
    return `the worker running this sync stopped or took longer than workers.job_timeout_seconds (${section.job_timeout_seconds}s); the previous data was kept. Look at the worker's log, then sync again.`;
  }
  return `the worker failed: ${message}; the previous data was kept`;
}
