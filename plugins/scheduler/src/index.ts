import { fileURLToPath } from 'node:url';
import { coreServices, definePlugin } from '@basin/core';
import { governanceRef } from '@basin/plugin-governance/contract';
import { sourceStatusPoint } from '@basin/plugin-sources/contract';
import { syncEngineRef, syncPermissions } from '@basin/plugin-sync/contract';
import { txRunnerRef } from '@basin/plugin-transform/contract';
import { schedulesFileSpec, type SchedulesFile } from './config.js';
import { scheduleJobTypesPoint, schedulerRef, schedulerPermissions, type ScheduleJobRunner, type SchedulerView } from './contract.js';
import { registerScheduleRoutes } from './routes.js';
import { registerScheduleCommands } from './cli/register.js';
import { Scheduler } from './scheduler.js';
import { JobStore } from './store.js';
import { SCHEDULER_EVENTS } from './events.js';

/** a page module of this plugin (served by the web plugin with its folder, ctx.page) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));

export * from './config.js';
export * from './cron.js';
export * from './events.js';
export * from './contract.js';
export type { JobRecord, JobStatus, JobTrigger } from './store.js';
export { Scheduler, TICK_SECONDS, type ScheduleView } from './scheduler.js';

/** Cron schedules for syncs, dbt commands and scripts (SPEC "schedules.yml", "Schedules and notifications"). */
export default definePlugin({
  name: 'scheduler',
  permissions: [syncPermissions.sync, ...Object.values(schedulerPermissions)],
  optionalDependsOn: ['sources', 'sync', 'transform', 'governance'],
  configFiles: [schedulesFileSpec],
  commands: registerScheduleCommands,
  register(ctx) {
    ctx.page({ path: '/schedules', title: 'Schedules', permission: 'scheduler.view', section: 'Operate', order: 10, file: uiFile('schedules.js') });
    const store = new JobStore(ctx.resolve(coreServices.stateDb));
    const jobTypes = new Map<string, ScheduleJobRunner>();
    ctx.provideExtensionPoint(scheduleJobTypesPoint, { contribute: (type, runner) => void jobTypes.set(type, runner) });
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
        syncEngine: () => ctx.tryResolve(syncEngineRef),
        txRunner: () => ctx.tryResolve(txRunnerRef),
        attentionSources: async () => (await ctx.tryResolve(governanceRef)?.attentionSources()) ?? new Set<string>(),
        jobType: (type) => jobTypes.get(type),
      },
    });
    ctx.provide(schedulerRef, scheduler);
    // the sources API shows the schedules that sync each source
    ctx.extensionPoint(sourceStatusPoint)?.contribute({ schedule: (name) => sourceSchedules(scheduler, name) });
    ctx.events.declare(...SCHEDULER_EVENTS);
    registerScheduleRoutes(ctx, scheduler, store);
    ctx.onStart(() => scheduler.start());
    ctx.onStop(() => scheduler.stop());
    ctx.health(() => ({
      scheduler: { schedules: scheduler.current().schedules.length, running_jobs: scheduler.activeJobs().length },
    }));
  },
});

function sourceSchedules(s: SchedulerView, source: string) {
  const list = s.current().schedules.filter((x) => x.enabled !== false && (x.type === 'sync' || x.type === 'sync_only') && (x.sources ?? []).includes(source));
  if (!list.length) return null;
  return {
    schedules: list.map((x) => ({ name: x.name, cron: x.cron, next_run: s.nextRun(x.name)?.toISOString() ?? null })),
    next_run: list.map((x) => s.nextRun(x.name)?.toISOString() ?? null).filter(Boolean).sort()[0] ?? null,
  };
}
