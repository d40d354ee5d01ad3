import { Type } from '@sinclair/typebox';
import { errors, type PluginContext } from '@basin/core';
import type { SchedulesFile } from '@basin/plugin-scheduler/contract';
import type { Deliverer } from './delivery.js';
import { maskUrl } from './mask.js';
import type { Notifier } from './notifier.js';
import { notificationErrors } from './errors.js';

/** SPEC "Schedules and notifications" (notification half) plus the delivery log. */
export function registerNotificationRoutes(ctx: PluginContext, notifier: Notifier, deliverer: Deliverer, settings: () => SchedulesFile): void {
  ctx.routes.get('/api/notifications/config', { permission: 'scheduler.view', schema: { summary: 'Webhooks (URLs with tokens masked) and notification triggers' } }, async () => {
    const n = settings().notifications;
    return {
      webhooks: n.webhooks.map((w) => ({ name: w.name, url: maskUrl(w.url), format: w.format })),
      on_failure: n.on_failure,
      on_success: n.on_success,
      on_stale: n.on_stale,
      on_governance: n.on_governance,
      on_analysis: n.on_analysis,
      stale_threshold_hours: n.stale_threshold_hours,
    };
  });

  ctx.routes.post('/api/notifications/test', { errors: [notificationErrors.no_webhooks], permission: 'scheduler.manage', schema: { summary: 'Send a test message to every configured webhook and report each delivery' } }, async () => {
    if (!settings().notifications.webhooks.length) throw notificationErrors.no_webhooks();
    const results = await notifier.sendTest();
    return { ok: results.every((r) => r.ok), results };
  });

  ctx.routes.get(
    '/api/notifications/deliveries',
    { permission: 'scheduler.view', schema: { summary: 'Webhook delivery log, newest first (beyond SPEC)', querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }), offset: Type.Integer({ minimum: 0, default: 0 }) }) } },
    async (req) => deliverer.log(req.query.limit, req.query.offset),
  );
}
