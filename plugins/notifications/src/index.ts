import { coreServices, createServiceRef, definePlugin } from '@basin/core';
import { schedulerRef, type SchedulesFile, schedulerPermissions } from '@basin/plugin-scheduler/contract';
import { Deliverer } from './delivery.js';
import { Notifier } from './notifier.js';
import { registerNotificationRoutes } from './routes.js';
import { notifierRef } from './contract.js';

export * from './payload.js';
export * from './mask.js';
export * from './gating.js';
export type { DeliveryResult, DeliveryPolicy, Webhook } from './delivery.js';
export { Notifier } from './notifier.js';
export * from './contract.js';

/** the webhook deliverer (its delivery log); this plugin's own, tests read it */
const delivererRef = createServiceRef<Deliverer>({ id: 'webhookDeliverer' });

/** How often staleness is checked in production. */
export const STALE_CHECK_MINUTES = 5;

/** Webhook notifications from schedules.yml `notifications` (SPEC "Webhook notifications"). */
export default definePlugin({
  name: 'notifications',
  permissions: [...Object.values(schedulerPermissions)],
  optionalDependsOn: ['scheduler'],
  register(ctx) {
    const db = ctx.resolve(coreServices.stateDb);
    const deliverer = new Deliverer(db, ctx.clock, 'Basin-Webhooks/1.0');
    // the scheduler owns schedules.yml and holds the reloaded copy; without it, the defaults
    const fallback: SchedulesFile = ctx.config.hasFile('schedules')
      ? ctx.config.file<SchedulesFile>('schedules')
      : { schedules: [], notifications: { webhooks: [], on_failure: true, on_success: true, on_stale: true, on_governance: true, on_analysis: true, stale_threshold_hours: 24 } };
    const settings = () => ctx.tryResolve(schedulerRef)?.current() ?? fallback;
    const baseUrl = () => (ctx.config.env('BASIN_PUBLIC_URL') ?? `http://localhost:${ctx.config.platform.port}`).replace(/\/+$/, '');
    const notifier = new Notifier({ events: ctx.events, clock: ctx.clock, log: ctx.log, db, deliverer, settings, baseUrl });
    notifier.attach();
    ctx.events.declare('sync_stale');
    ctx.provide(notifierRef, notifier);
    ctx.provide(delivererRef, deliverer);
    registerNotificationRoutes(ctx, notifier, deliverer, settings);

    let timer: NodeJS.Timeout | undefined;
    ctx.onStart(() => {
      timer = setInterval(() => {
        try {
          notifier.checkStale();
        } catch (err) {
          ctx.log.error({ err }, 'stale check failed');
        }
      }, STALE_CHECK_MINUTES * 60_000);
      timer.unref();
    });
    ctx.onStop(async () => {
      if (timer) clearInterval(timer);
      await notifier.idle();
    });
  },
});
