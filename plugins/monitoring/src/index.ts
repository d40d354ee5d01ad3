import { coreServices, definePlugin, LiveConfigFile } from '@basin/core';
import type { SyncCompleted } from '@basin/plugin-sync/contract';
import { Type } from '@sinclair/typebox';
import { monitorsFileSpec, type MonitorsFile } from './config.js';
import { monitoringRef } from './contract.js';
import { MonitorEngine } from './engine.js';
import { MonitorStore } from './store.js';
import { registerMonitorCommands } from './cli/monitor.js';
import { governancePermissions } from '@basin/plugin-governance/contract';
import { monitoringErrors } from './errors.js';

export * from './config.js';
export type { MetricAlert, RunOutcome } from './engine.js';
export type { MonitorResult, MonitorRun, SegmentMove } from './store.js';
export { MonitorEngine } from './engine.js';
export { planMonitor, MonitorPlanError, type MonitorPlan } from './plan.js';
export { evaluate, type Evaluation } from './evaluate.js';
export { ExpressionGuard, ExpressionError } from './expression-guard.js';
export * from './contract.js';

/** Runs after the last of a burst of syncs (several sources finishing together make one run). */
export const SYNC_DEBOUNCE_MS = 2000;

/** Metric monitors (SPEC monitors.yml; "Governance and monitoring" endpoints). */
export default definePlugin({
  name: 'monitoring',
  permissions: [governancePermissions.view],
  configFiles: [monitorsFileSpec],
  commands: registerMonitorCommands,
  register(ctx) {
    const store = new MonitorStore(ctx.resolve(coreServices.stateDb));
    // monitors.yml edits apply without a restart once they validate (schema and expression guard)
    const monitors = new LiveConfigFile<MonitorsFile>(ctx.config.projectDir, monitorsFileSpec, ctx.config.file<MonitorsFile>('monitors'), ctx.log, () => ctx.clock.now());
    const engine = new MonitorEngine(
      () => monitors.get(),
      ctx.resolve(coreServices.warehouseClient),
      store,
      ctx.events,
      ctx.clock,
      ctx.log,
    );
    ctx.provide(monitoringRef, engine);
    ctx.events.declare('metric_alert');

    // after syncs: collect the sources of a burst, run their monitors once the burst is over
    const pending = new Set<string>();
    let timer: NodeJS.Timeout | null = null;
    const flush = () => {
      timer = null;
      const sources = [...pending];
      pending.clear();
      if (!sources.length) return;
      engine.run({ sources, trigger: 'sync' }).catch((err) => ctx.log.error({ err }, 'monitor run after sync failed'));
    };
    ctx.events.on('sync_completed', (payload: SyncCompleted) => {
      engine.learnSchemas(payload.source, payload.tables.map((t) => t.schema).filter((s) => !!s));
      pending.add(payload.source);
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, SYNC_DEBOUNCE_MS);
      timer.unref();
    });
    const warehouse = ctx.resolve(coreServices.warehouse);
    ctx.onStart(async () => {
      // DuckDB opens on first use (issue 19): an idle start does not open it just to validate; a
      // monitor that does not fit the warehouse shows as a failed check when it runs
      if (!warehouse.isOpen) return;
      const problems = await engine.validate().catch(() => []);
      for (const p of problems) ctx.log.warn({ monitor: p.monitor, field: p.field }, `monitor invalid: ${p.message}`);
    });
    ctx.onStop(async () => {
      // a process that ends inside a burst's wait (`basin sync` from the shell) runs its monitors now,
      // as the server would have: dropping the timer left a CLI sync's monitors never run
      if (timer) {
        clearTimeout(timer);
        flush();
      }
      await engine.idle();
      engine.close();
    });
    ctx.health(() => {
      const latest = store.latestResults();
      return {
        monitor_errors: latest.filter((r) => r.status === 'error').map((r) => ({ monitor: r.monitor, error: r.error })),
        monitors_config_error: monitors.error(),
      };
    });

    ctx.routes.get('/api/monitoring', { permission: 'governance.view', schema: { summary: 'Latest metric monitor analysis (cached; run with POST /api/monitoring/run)' } }, async () => {
      const file = await monitors.get();
      const latest = new Map(store.latestResults().map((r) => [r.monitor, r]));
      return {
        enabled: file.enabled,
        last_run: store.latestRun(),
        monitors: file.monitors.map((m) => ({
          name: m.name,
          source_table: m.source_table,
          compare: m.compare,
          alert_threshold: m.alert_threshold ?? null,
          drill_down: m.drill_down,
          latest: latest.get(m.name) ?? null,
        })),
      };
    });

    ctx.routes.post(
      '/api/monitoring/run',
      { errors: [monitoringErrors.monitor_invalid],
        permission: 'governance.view',
        schema: {
          summary: 'Run metric monitors now',
          description: 'Runs every monitor, or with `source` only those whose source_table belongs to that source. 400 monitor_invalid (nothing run) when a selected monitor does not validate.',
          querystring: Type.Object({ source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        },
      },
      async (req) => {
        const source = req.query.source as string | undefined;
        const out = await engine.run({ sources: source ? [source] : undefined, trigger: 'api', strict: true });
        return { run: out.run, results: out.results };
      },
    );

    ctx.routes.get(
      '/api/monitoring/history',
      {
        permission: 'governance.view',
        schema: {
          summary: 'Monitor results of the last days, newest first',
          querystring: Type.Object({
            days: Type.Integer({ minimum: 1, maximum: 3660, default: 30 }),
            limit: Type.Integer({ minimum: 1, maximum: 5000, default: 500 }),
            offset: Type.Integer({ minimum: 0, default: 0 }),
          }),
        },
      },
      async (req) => {
        const since = new Date(ctx.clock.now().getTime() - (req.query.days as number) * 86_400_000).toISOString();
        return store.history(since, req.query.limit as number, req.query.offset as number);
      },
    );
  },
});
