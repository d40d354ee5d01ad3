import { createExtensionPoint, createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { Schedule } from './config.js';
import type { SchedulesFile } from './config.js';
import type { ScheduleJobFinished, ScheduleJobStarted, SyncRetrying } from './events.js';

/** The public face of the scheduler plugin: what other plugins may import (`@basin/plugin-scheduler/contract`). */
export type { Notifications, Schedule, SchedulesFile } from './config.js';
export type { ScheduleJobFinished, ScheduleJobStarted, SyncRetrying } from './events.js';
export type { JobStatus, JobTrigger } from './store.js';

/** What other plugins read from the scheduler: schedules.yml as in force (after a reload) and next runs. */
export interface SchedulerView {
  current(): SchedulesFile;
  nextRun(name: string): Date | null;
}

export const schedulerRef = createServiceRef<SchedulerView>({ id: 'scheduler' });

/** The work of a schedule type another plugin owns (`backup` by the backups plugin). */
export interface ScheduleJobRunner {
  run(job: { schedule: Schedule; signal: AbortSignal; log: (text: string) => void }): Promise<{ rows: number | null; error: string | null }>;
}
export interface ScheduleJobTypes {
  contribute(type: Schedule['type'], runner: ScheduleJobRunner): void;
}
/** lets a plugin run the jobs of a schedule type without the scheduler depending on it */
export const scheduleJobTypesPoint = createExtensionPoint<ScheduleJobTypes>({ id: 'scheduler.job-types' });

declare module '@basin/core' {
  interface BasinEvents {
    schedule_job_started: ScheduleJobStarted;
    schedule_job_finished: ScheduleJobFinished;
    sync_retrying: SyncRetrying;
  }
}

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const schedulerPermissions = {
  view: { name: 'scheduler.view', roles: grantedFrom.viewer },
  manage: { name: 'scheduler.manage', roles: grantedFrom.admin },
} satisfies Record<string, PermissionSpec>;
