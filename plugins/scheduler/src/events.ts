import type { JobStatus, JobTrigger } from './store.js';

/** Bus events the scheduler emits (the notifier turns them into webhooks). */
export interface ScheduleJobStarted {
  job_id: string;
  schedule: string;
  type: string;
  trigger: JobTrigger;
  attempt: number;
  sources: string[];
}
export interface ScheduleJobFinished extends ScheduleJobStarted {
  status: JobStatus;
  rows: number | null;
  error: string | null;
  duration_seconds: number;
  /** a retry is queued; the notifier sends sync_retrying instead of sync_failed */
  will_retry: boolean;
}
export interface SyncRetrying {
  schedule: string;
  sources: string[];
  error: string;
  /** the attempt that failed (1 = the first run) */
  attempt_number: number;
  next_retry_at: string;
  job_id: string;
  retry_job_id: string;
}

/** declared on the bus in contract.ts */
export const SCHEDULER_EVENTS = ['schedule_job_started', 'schedule_job_finished', 'sync_retrying'] as const;
