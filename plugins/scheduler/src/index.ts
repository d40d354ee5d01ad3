import { asValue, definePlugin } from '@basin/core';
import { schedulesFileSpec, type SchedulesFile } from './config.js';
import type { Governance, SyncEngine, TxRunner } from './contracts.js';
import { registerScheduleRoutes } from './routes.js';
import { Scheduler } from './scheduler.js';
import { JobStore } from './store.js';
import { SCHEDULER_EVENTS } from './events.js';

export * from './config.js';
export * from './cron.js';
export * from './events.js';
export type { JobRecord, JobStatus, JobTrigger } from './store.js';
export { Scheduler, TICK_SECONDS, type ScheduleView } from './scheduler.js';

/** Cron schedules for syncs, dbt commands and scripts (SPEC "schedules.yml", "Schedules and notifications"). */
export default definePlugin({
  name: 'scheduler',
  optionalDependsOn: ['sources', 'sync', 'transform', 'governance'],
  configFiles: [schedulesFileSpec],
  register(ctx) {
    const store = new JobStore(ctx.resolve('stateDb'));
    const scheduler = new Scheduler({
      projectDir: ctx.config.projectDir,
      initial: ctx.config.file<SchedulesFile>('schedules'),
      store,
      clock: ctx.clock,
      events: ctx.events,
      log: ctx.log,
      work: {
        projectDir: ctx.config.projectDir,
        // resolved per job: the engines may be registered after us or replaced in tests
        syncEngine: () => ctx.tryResolve<SyncEngine>('syncEngine'),
        txRunner: () => ctx.tryResolve<TxRunner>('txRunner'),
        attentionSources: async () => (await ctx.tryResolve<Governance>('governance')?.attentionSources()) ?? new Set<string>(),
      },
    });
    ctx.provide('scheduler', asValue(scheduler));
    ctx.events.declare(...SCHEDULER_EVENTS);
    registerScheduleRoutes(ctx, scheduler, store);
    ctx.onStart(() => scheduler.start());
    ctx.onStop(() => scheduler.stop());
    ctx.health(() => ({
      scheduler: { schedules: scheduler.current().schedules.length, running_jobs: scheduler.activeJobs().length },
    }));
  },
});
