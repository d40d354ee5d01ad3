import { randomUUID } from 'node:crypto';
import { type Clock, type EventBus, type Logger, type WarehouseClient } from '@basin/core';
import type { Monitor, MonitorsFile } from './config.js';
import { roundPct } from './compare.js';
import { evaluate } from './evaluate.js';
import { ExpressionGuard } from './expression-guard.js';
import { MonitorPlanError, planMonitor, type MonitorPlan, type PlanProblem } from './plan.js';
import type { MonitorResult, MonitorRun, MonitorStore, SegmentMove } from './store.js';
import { monitoringErrors } from './errors.js';

/** the metric_alert payload (declared on the bus in contract.ts) */
export interface MetricAlert {
  monitor: string;
  source_table: string;
  value: number | null;
  baseline: number | null;
  change_pct: number | null;
  threshold: number;
  period: string;
  compare: string;
  segments: SegmentMove[];
  /** a sentence for people; receivers compose one from the numbers when absent */
  message?: string;
}

export interface RunOptions {
  /** only monitors whose source_table belongs to one of these sources (schema `<source>`, `raw_<source>` or one a sync loaded) */
  sources?: string[];
  trigger: 'api' | 'sync' | 'cli' | 'start';
  /** refuse the whole run (400 monitor_invalid) when a selected monitor does not validate; else record it as an error */
  strict?: boolean;
}

export interface RunOutcome {
  run: MonitorRun;
  results: MonitorResult[];
}

/** Runs metric monitors (one run at a time), stores results, emits one metric_alert per monitor and period. */
export class MonitorEngine {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly guard = new ExpressionGuard();
  /** schemas each source's syncs loaded into, learned from sync_completed */
  private readonly sourceSchemas = new Map<string, Set<string>>();

  constructor(
    /** monitors.yml as running now (a valid edit applies without a restart) */
    private readonly file: () => Promise<MonitorsFile>,
    /** the project's warehouse (any backend): monitors read through its read-only query */
    private readonly warehouse: WarehouseClient,
    private readonly store: MonitorStore,
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  learnSchemas(source: string, schemas: string[]): void {
    const set = this.sourceSchemas.get(source) ?? new Set<string>();
    for (const s of schemas) set.add(s);
    this.sourceSchemas.set(source, set);
  }

  belongsTo(m: Monitor, source: string): boolean {
    const schema = m.source_table.split('.')[0]!;
    return schema === source || schema === `raw_${source}` || (this.sourceSchemas.get(source)?.has(schema) ?? false);
  }

  async selected(sources?: string[]): Promise<Monitor[]> {
    const f = await this.file();
    if (!f.enabled) return [];
    return sources ? f.monitors.filter((m) => sources.some((s) => this.belongsTo(m, s))) : f.monitors;
  }

  /** Validates monitors against the warehouse without running them. */
  async validate(list?: Monitor[]): Promise<PlanProblem[]> {
    const monitors = list ?? (await this.file()).monitors;
    const problems: PlanProblem[] = [];
    for (const m of monitors) {
      try {
        await planMonitor(m, this.warehouse, this.guard);
      } catch (e) {
        if (e instanceof MonitorPlanError) problems.push(e.problem);
        else throw e;
      }
    }
    return problems;
  }

  run(opts: RunOptions): Promise<RunOutcome> {
    const next = this.chain.then(() => this.runNow(opts));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async runNow(opts: RunOptions): Promise<RunOutcome> {
    const monitors = await this.selected(opts.sources);
    const plans: Array<MonitorPlan | PlanProblem> = [];
    for (const m of monitors) {
      try {
        plans.push(await planMonitor(m, this.warehouse, this.guard));
      } catch (e) {
        if (!(e instanceof MonitorPlanError)) throw e;
        plans.push(e.problem);
      }
    }
    const problems = plans.filter((p): p is PlanProblem => 'field' in p);
    if (opts.strict && problems.length) {
      throw monitoringErrors.monitor_invalid({ count: problems.length, summary: problems.map((p) => `${p.monitor}.${p.field}: ${p.message}`).join('; ') }, { details: problems });
    }

    const now = this.clock.now();
    const run: MonitorRun = {
      id: randomUUID(),
      trigger: opts.trigger,
      source: opts.sources?.join(',') ?? null,
      started_at: now.toISOString(),
      finished_at: null,
      monitors: monitors.length,
      alerts: 0,
      errors: 0,
    };
    this.store.startRun(run);
    const today = now.toISOString().slice(0, 10);
    const results: MonitorResult[] = [];
    for (const p of plans) {
      const result = 'field' in p ? this.errorResult(run, monitors.find((m) => m.name === p.monitor)!, `${p.field}: ${p.message}`) : await this.evaluateOne(run, p, today);
      if (result.status === 'error') run.errors++;
      if (result.alert_emitted) run.alerts++;
      this.store.saveResult(result);
      results.push(result);
    }
    run.finished_at = this.clock.now().toISOString();
    this.store.finishRun(run);
    return { run, results };
  }

  private async evaluateOne(run: MonitorRun, plan: MonitorPlan, today: string): Promise<MonitorResult> {
    const m = plan.monitor;
    let ev;
    try {
      ev = await evaluate(plan, this.warehouse, today);
    } catch (e) {
      this.log.warn({ monitor: m.name, err: (e as Error).message }, 'monitor failed');
      return this.errorResult(run, m, (e as Error).message);
    }
    const result: MonitorResult = {
      monitor: m.name,
      source_table: m.source_table,
      compare: m.compare,
      period: ev.period,
      value: ev.value,
      baseline: ev.baseline,
      change_pct: roundPct(ev.change_pct),
      threshold: m.alert_threshold ?? null,
      status: ev.period === null || ev.baseline === null || ev.value === null ? 'insufficient_data' : ev.crossed ? 'alert' : 'ok',
      error: null,
      segments: ev.segments,
      computed_at: this.clock.now().toISOString(),
      run_id: run.id,
      alert_emitted: false,
    };
    if (result.status === 'alert' && this.store.claimAlert(result)) {
      result.alert_emitted = true;
      void this.events.emit('metric_alert', {
        monitor: m.name,
        source_table: m.source_table,
        value: result.value,
        baseline: result.baseline,
        change_pct: result.change_pct,
        threshold: m.alert_threshold!,
        period: result.period!,
        compare: m.compare,
        segments: result.segments,
      });
    }
    return result;
  }

  private errorResult(run: MonitorRun, m: Monitor, error: string): MonitorResult {
    return {
      monitor: m.name,
      source_table: m.source_table,
      compare: m.compare,
      period: null,
      value: null,
      baseline: null,
      change_pct: null,
      threshold: m.alert_threshold ?? null,
      status: 'error',
      error,
      segments: [],
      computed_at: this.clock.now().toISOString(),
      run_id: run.id,
      alert_emitted: false,
    };
  }

  /** waits for the running and queued runs */
  async idle(): Promise<void> {
    await this.chain;
  }

  close(): void {
    this.guard.close();
  }
}
