import type { SyncProgressEvent } from '@basin/plugin-sync/contract';
import type PgBoss from 'pg-boss';

/**
 * a running sync's latest progress as a worker reports it: its `sync_progress` event but the source
 * and sync id, which the server sets from its own record (fields added to the event pass through)
 */
export type RunProgress = Omit<SyncProgressEvent, 'source' | 'sync_id'>;

/** what the server reads of a sync a worker runs */
export interface RunView {
  worker: string | null;
  progress: RunProgress | null;
  /** bumped by each progress report: the server emits an event only for a new one */
  progress_seq: number;
  /** seconds since the worker's last report; null before a worker took the sync */
  silent_seconds: number | null;
}

/**
 * The table beside pg-boss's (`<queue_schema>.sync_run`, one row per sync the server waits for) through
 * which the server and the worker running a sync talk while it runs: the worker reports its progress
 * and a heartbeat every HEARTBEAT_MS and reads back whether the server asked to cancel. A table rather
 * than LISTEN/NOTIFY: nothing is lost while either side reconnects, it works through a transaction
 * pooler, and the server's wait loop already polls the queue (see docs/decisions.md, issue 22 workers).
 */
export class RunControl {
  constructor(
    private readonly db: PgBoss.Db,
    private readonly schema: string,
  ) {}

  private get table(): string {
    return `"${this.schema}".sync_run`;
  }

  async ensure(): Promise<void> {
    await this.db.executeSql(
      `CREATE TABLE IF NOT EXISTS ${this.table} (
        sync_id text PRIMARY KEY,
        job_id uuid NOT NULL,
        source text NOT NULL,
        worker text,
        progress jsonb,
        progress_seq integer NOT NULL DEFAULT 0,
        cancel_requested boolean NOT NULL DEFAULT false,
        heartbeat_on timestamptz,
        created_on timestamptz NOT NULL DEFAULT now()
      )`,
      [],
    );
    // rows of syncs whose server stopped before taking their outcome
    await this.db.executeSql(`DELETE FROM ${this.table} WHERE created_on < now() - interval '7 days'`, []);
  }

  /** the server, right after sending the job */
  async register(syncId: string, jobId: string, source: string): Promise<void> {
    await this.db.executeSql(`INSERT INTO ${this.table} (sync_id, job_id, source) VALUES ($1, $2, $3) ON CONFLICT (sync_id) DO UPDATE SET job_id = $2`, [syncId, jobId, source]);
  }

  /** the server: ask the worker running the sync to stop (it reads this at its next heartbeat) */
  async requestCancel(syncId: string): Promise<void> {
    await this.db.executeSql(`UPDATE ${this.table} SET cancel_requested = true WHERE sync_id = $1`, [syncId]);
  }

  async view(syncId: string): Promise<RunView | null> {
    const { rows } = await this.db.executeSql(
      `SELECT worker, progress, progress_seq, extract(epoch FROM now() - heartbeat_on)::float8 AS silent FROM ${this.table} WHERE sync_id = $1`,
      [syncId],
    );
    const r = rows[0] as { worker: string | null; progress: RunProgress | null; progress_seq: number; silent: number | null } | undefined;
    return r ? { worker: r.worker, progress: r.progress, progress_seq: r.progress_seq, silent_seconds: r.silent } : null;
  }

  async jobOf(syncId: string): Promise<string | null> {
    const { rows } = await this.db.executeSql(`SELECT job_id::text AS job_id FROM ${this.table} WHERE sync_id = $1`, [syncId]);
    return (rows[0] as { job_id: string } | undefined)?.job_id ?? null;
  }

  /** every row: at a server's start, the syncs a previous server process sent and did not see end */
  async left(): Promise<Array<{ sync_id: string; job_id: string }>> {
    const { rows } = await this.db.executeSql(`SELECT sync_id, job_id::text AS job_id FROM ${this.table} ORDER BY created_on`, []);
    return rows as Array<{ sync_id: string; job_id: string }>;
  }

  async remove(syncId: string): Promise<void> {
    await this.db.executeSql(`DELETE FROM ${this.table} WHERE sync_id = $1`, [syncId]);
  }

  /**
   * The worker: a heartbeat with its newest progress (null: unchanged). Answers whether to stop: the
   * server asked to cancel, or the queue no longer holds the job as active (pg-boss failed it after
   * `job_timeout_seconds`, or it was cancelled there), so an outcome would be recorded by nobody.
   * The job's state is read by the job's own id, not through the run's row: the server removes the
   * row as soon as it has seen the job fail, and a worker whose beat came after that would otherwise
   * read no state and go on loading (a flaky run of plugins/workers/test/workers.test.ts).
   * Null when the job is active and the server sent it without a row (it waits for no report).
   */
  async heartbeat(syncId: string, worker: string, progress: RunProgress | null, queue: string, jobId: string): Promise<{ stop: 'cancel' | 'ended' | null } | null> {
    const { rows } = await this.db.executeSql(
      `WITH beat AS (
         UPDATE ${this.table} r SET worker = $2, heartbeat_on = now(),
           progress = COALESCE($3::jsonb, r.progress),
           progress_seq = r.progress_seq + CASE WHEN $3::jsonb IS NULL THEN 0 ELSE 1 END
         WHERE r.sync_id = $1
         RETURNING r.cancel_requested
       )
       SELECT (SELECT cancel_requested FROM beat) AS cancel_requested,
              (SELECT j.state::text FROM "${this.schema}".job j WHERE j.name = $4 AND j.id = $5::uuid) AS state`,
      [syncId, worker, progress ? JSON.stringify(progress) : null, queue, jobId],
    );
    const r = rows[0] as { cancel_requested: boolean | null; state: string | null };
    if (r.cancel_requested) return { stop: 'cancel' };
    if (r.state !== 'active') return { stop: 'ended' };
    return r.cancel_requested === null ? null : { stop: null };
  }

  /**
   * The server: the queue's job of a source not yet finished (queued, waiting to retry or running on a
   * worker), whoever sent it. Read from pg-boss's own job table: pg-boss has no call for "jobs by
   * singleton key"; its `state` enum orders created < retry < active < completed.
   */
  async unfinishedJob(queue: string, source: string): Promise<{ id: string; state: string } | null> {
    const { rows } = await this.db.executeSql(
      `SELECT id::text AS id, state::text AS state FROM "${this.schema}".job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' ORDER BY created_on LIMIT 1`,
      [queue, source],
    );
    return (rows[0] as { id: string; state: string } | undefined) ?? null;
  }
}
