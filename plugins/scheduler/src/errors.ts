import { defineErrors } from '@basin/core';

/** The scheduler's error codes. */
export const schedulerErrors = defineErrors('scheduler', {
  schedule_running: { status: 409, message: (a: { name: string; job: string | undefined }) => `Schedule "${a.name}" is already running (job ${a.job}); this trigger was recorded as skipped.` },
  job_not_running: { status: 409, message: (a: { job: string; status: string }) => `Job ${a.job} is ${a.status}; only running or queued jobs can be cancelled.` },
  config_invalid: { status: 400, message: (a: { file: string; count: number }) => `${a.file} has ${a.count} problem(s); the running schedules were kept.` },
});
