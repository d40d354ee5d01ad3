import crypto from 'node:crypto';
import { migrate, type SqliteDb } from '@basin/core';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out' | 'missed' | 'skipped';
export type JobTrigger = 'schedule' | 'manual' | 'retry' | 'startup';

/** One execution (or non-execution: missed, skipped) of a schedule, as stored and as the API returns it. */
export interface JobRecord {
  id: string;
  schedule: string;
  type: string;
  status: JobStatus;
  trigger: JobTrigger;
  attempt: number;
  /** the job this one retries (the first attempt's id), or null */
  retry_of: string | null;
  sources: string[];
  scheduled_for: string | null;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_seconds: number | null;
  rows: number | null;
  error: string | null;
}
export interface JobWithLog extends JobRecord {
  log: string;
}

const MIGRATIONS = [
  `CREATE TABLE sched_jobs (
     id TEXT PRIMARY KEY, schedule TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL, trigger TEXT NOT NULL,
     attempt INTEGER NOT NULL DEFAULT 1, retry_of TEXT, sources TEXT NOT NULL DEFAULT '[]',
     scheduled_for TEXT, queued_at TEXT NOT NULL, started_at TEXT, finished_at TEXT, duration_seconds REAL,
     rows INTEGER, error TEXT, log TEXT NOT NULL DEFAULT '');
   CREATE INDEX sched_jobs_schedule ON sched_jobs (schedule, queued_at);
   CREATE INDEX sched_jobs_status ON sched_jobs (status);
   CREATE TABLE sched_state (name TEXT PRIMARY KEY, signature TEXT NOT NULL, next_run_at TEXT NOT NULL);`,
];

/** Biggest job log kept; the tail is what matters when a script fails. */
export const MAX_LOG_CHARS = 256 * 1024;

type Row = Omit<JobRecord, 'sources'> & { sources: string; log?: string };
const COLS = 'id, schedule, type, status, trigger, attempt, retry_of, sources, scheduled_for, queued_at, started_at, finished_at, duration_seconds, rows, error';
const toRecord = ({ log: _log, ...r }: Row): JobRecord => ({ ...r, sources: JSON.parse(r.sources) as string[] });

/** The scheduler's tables in state.db (`sched_` prefix): jobs and each schedule's persisted next run. */
export class JobStore {
  constructor(private readonly db: SqliteDb) {
    migrate(db, 'scheduler', MIGRATIONS);
  }

  insert(j: Omit<JobRecord, 'id'> & { id?: string; log?: string }): JobRecord {
    const id = j.id ?? `job_${crypto.randomBytes(8).toString('hex')}`;
    this.db
      .prepare(`INSERT INTO sched_jobs (${COLS}, log) VALUES (@id, @schedule, @type, @status, @trigger, @attempt, @retry_of, @sources, @scheduled_for, @queued_at, @started_at, @finished_at, @duration_seconds, @rows, @error, @log)`)
      .run({ ...j, id, sources: JSON.stringify(j.sources), log: j.log ?? '' });
    return this.get(id)!;
  }

  update(id: string, patch: Partial<Omit<JobRecord, 'id' | 'sources'>> & { log?: string }): void {
    const keys = Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== undefined);
    if (!keys.length) return;
    // keys come from the typed patch object, never from user input
    this.db.prepare(`UPDATE sched_jobs SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...patch, id });
  }

  get(id: string): JobRecord | undefined {
    const r = this.db.prepare(`SELECT ${COLS} FROM sched_jobs WHERE id = ?`).get(id) as Row | undefined;
    return r && toRecord(r);
  }

  getWithLog(id: string): JobWithLog | undefined {
    const r = this.db.prepare(`SELECT ${COLS}, log FROM sched_jobs WHERE id = ?`).get(id) as Row | undefined;
    return r && { ...toRecord(r), log: r.log ?? '' };
  }

  history(schedule: string, limit: number, offset: number): { items: JobRecord[]; total: number } {
    const items = (this.db.prepare(`SELECT ${COLS} FROM sched_jobs WHERE schedule = ? ORDER BY queued_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(schedule, limit, offset) as Row[]).map(toRecord);
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM sched_jobs WHERE schedule = ?').get(schedule) as { n: number };
    return { items, total: n };
  }

  recent(limit: number, offset: number): { items: JobRecord[]; total: number } {
    const items = (this.db.prepare(`SELECT ${COLS} FROM sched_jobs ORDER BY queued_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(limit, offset) as Row[]).map(toRecord);
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM sched_jobs').get() as { n: number };
    return { items, total: n };
  }

  /** the newest job of a schedule that actually ran (not missed/skipped/queued) */
  lastRun(schedule: string): JobRecord | undefined {
    const r = this.db
      .prepare(`SELECT ${COLS} FROM sched_jobs WHERE schedule = ? AND started_at IS NOT NULL ORDER BY started_at DESC, rowid DESC LIMIT 1`)
      .get(schedule) as Row | undefined;
    return r && toRecord(r);
  }

  byStatus(status: JobStatus): JobRecord[] {
    return (this.db.prepare(`SELECT ${COLS} FROM sched_jobs WHERE status = ? ORDER BY queued_at`).all(status) as Row[]).map(toRecord);
  }

  nextRunState(name: string): { signature: string; next_run_at: string } | undefined {
    return this.db.prepare('SELECT signature, next_run_at FROM sched_state WHERE name = ?').get(name) as { signature: string; next_run_at: string } | undefined;
  }

  saveNextRun(name: string, signature: string, next: Date): void {
    this.db
      .prepare('INSERT INTO sched_state (name, signature, next_run_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET signature = excluded.signature, next_run_at = excluded.next_run_at')
      .run(name, signature, next.toISOString());
  }

  forgetNextRun(name: string): void {
    this.db.prepare('DELETE FROM sched_state WHERE name = ?').run(name);
  }
}
