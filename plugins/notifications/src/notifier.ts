import type { Clock, EventBus, Logger, SqliteDb } from '@basin/core';
import type { PiiDetected, SchemaDriftDetected } from '@basin/plugin-governance/contract';
import type { MetricAlert } from '@basin/plugin-monitoring/contract';
import type { Schedule, SchedulesFile, ScheduleJobFinished, SyncRetrying } from '@basin/plugin-scheduler/contract';
import type { SyncCompleted, SyncFailed } from '@basin/plugin-sync/contract';
import type { DeliveryResult, Deliverer } from './delivery.js';
import { shouldNotify } from './gating.js';
import { chatPayload, genericPayload, type Notification, type WebhookEvent } from './payload.js';

export interface NotifierDeps {
  events: EventBus;
  clock: Clock;
  log: Logger;
  db: SqliteDb;
  deliverer: Deliverer;
  /** the schedules file in force (the scheduler's after a reload) */
  settings: () => SchedulesFile;
  /** base URL of Basin for dashboard_url */
  baseUrl: () => string;
}

/** Keys dropped from governance and alert metadata so sampled values never leave Basin. */
const SAMPLE_KEYS = /sample|example|value|match/i;
function withoutSamples(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutSamples);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !SAMPLE_KEYS.test(k)).map(([k, x]) => [k, withoutSamples(x)]));
  return v;
}

/**
 * Turns bus events into webhook notifications. Deliveries run in the background: a listener only
 * starts them, so a slow or dead receiver never holds up a sync or the bus.
 */
export class Notifier {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly d: NotifierDeps) {}

  attach(): void {
    const ev = this.d.events;
    ev.on('schedule_job_finished', (p) => this.onJobFinished(p));
    ev.on('sync_retrying', (p) => this.onRetrying(p));
    ev.on('sync_completed', (p) => this.onSyncCompleted(p));
    ev.on('sync_failed', (p) => this.onSyncFailed(p));
    ev.on('schema_drift_detected', (p) => this.onGovernance('schema_drift_detected', p));
    ev.on('pii_detected', (p) => this.onGovernance('pii_detected', p));
    ev.on('metric_alert', (p) => this.onMetricAlert(p));
  }

  /** Sends a notification to every webhook if gating allows; returns at once. */
  notify(n: Notification, schedule?: Schedule): boolean {
    const s = this.d.settings();
    if (!s.notifications.webhooks.length || !shouldNotify(n.event_type, s.notifications, schedule)) return false;
    const run = Promise.all(s.notifications.webhooks.map((h) => this.d.deliverer.deliver(h, n.event_type, h.format === 'chat' ? chatPayload(n) : genericPayload(n))));
    this.track(
      run.then((results) => {
        for (const r of results.filter((x) => !x.ok)) this.d.log.warn({ webhook: r.webhook, url: r.url, event: r.event, attempts: r.attempts, error: r.error }, 'webhook delivery failed');
      }),
    );
    return true;
  }

  /** POST /api/notifications/test: one test message to every webhook, ungated, awaited. */
  async sendTest(): Promise<DeliveryResult[]> {
    const n = this.base('sync_completed', 'test', []);
    n.test = true;
    n.metadata = { test: true, message: 'Test notification from Basin: this webhook is configured correctly.' };
    return Promise.all(this.d.settings().notifications.webhooks.map((h) => this.d.deliverer.deliver(h, 'test', h.format === 'chat' ? chatPayload(n) : genericPayload(n))));
  }

  /**
   * Sends `sync_stale` for each scheduled source not loaded for stale_threshold_hours, once per
   * stale period (a later successful sync starts a new one). Age counts from the last successful
   * sync Basin saw, or from when the source was first checked if it never synced.
   */
  checkStale(): Notification[] {
    const s = this.d.settings();
    const now = this.d.clock.now();
    const threshold = s.notifications.stale_threshold_hours;
    const sent: Notification[] = [];
    const seen = this.d.db.prepare('INSERT OR IGNORE INTO notif_source_state (source, first_seen_at) VALUES (?, ?)');
    const get = this.d.db.prepare('SELECT * FROM notif_source_state WHERE source = ?');
    const mark = this.d.db.prepare('UPDATE notif_source_state SET stale_notified_at = ? WHERE source = ?');
    for (const [source, schedule] of this.scheduledSources(s)) {
      seen.run(source, now.toISOString());
      const st = get.get(source) as { first_seen_at: string; last_success_at: string | null; stale_notified_at: string | null };
      if (st.stale_notified_at) continue;
      const since = new Date(st.last_success_at ?? st.first_seen_at);
      const hours = (now.getTime() - since.getTime()) / 3_600_000;
      if (hours < threshold) continue;
      mark.run(now.toISOString(), source);
      const n = this.base('sync_stale', schedule.name, [source], '/sources');
      n.stale_hours = Math.round(hours * 10) / 10;
      n.metadata = { last_success_at: st.last_success_at, threshold_hours: threshold };
      void this.d.events.emit('sync_stale', { source, schedule: schedule.name, stale_hours: n.stale_hours, last_success_at: st.last_success_at });
      this.notify(n, schedule);
      sent.push(n);
    }
    return sent;
  }

  /** Waits for deliveries in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private onJobFinished(p: ScheduleJobFinished): void {
    if (p.will_retry) return; // sync_retrying reports this attempt
    const event: WebhookEvent | null = p.status === 'succeeded' ? 'sync_completed' : p.status === 'failed' || p.status === 'timed_out' ? 'sync_failed' : null;
    if (!event) return;
    const schedule = this.schedule(p.schedule);
    const n = this.base(event, p.schedule, p.sources);
    n.error = p.error;
    n.duration_seconds = p.duration_seconds;
    n.rows_loaded = p.rows;
    n.attempt_number = p.attempt > 1 ? p.attempt : null;
    n.metadata = { job_id: p.job_id, type: p.type, trigger: p.trigger, status: p.status };
    this.notify(n, schedule);
  }

  private onRetrying(p: SyncRetrying): void {
    const schedule = this.schedule(p.schedule);
    const n = this.base('sync_retrying', p.schedule, p.sources);
    n.error = p.error;
    n.attempt_number = p.attempt_number;
    n.next_retry_at = p.next_retry_at;
    n.metadata = { job_id: p.job_id, retry_job_id: p.retry_job_id };
    this.notify(n, schedule);
  }

  /** Syncs not started by a schedule (API, watcher, upload): success resets staleness; only failures are sent. */
  private onSyncCompleted(p: SyncCompleted): void {
    const now = this.d.clock.now().toISOString();
    this.d.db
      .prepare('INSERT INTO notif_source_state (source, first_seen_at, last_success_at) VALUES (?, ?, ?) ON CONFLICT(source) DO UPDATE SET last_success_at = excluded.last_success_at, stale_notified_at = NULL')
      .run(p.source, now, now);
  }

  private onSyncFailed(p: SyncFailed): void {
    if (p.schedule) return; // the scheduler's job event reports it, once per run
    const n = this.base('sync_failed', p.trigger ?? 'manual', [p.source], '/sources');
    n.error = p.error ?? null;
    n.duration_seconds = 0;
    n.metadata = { sync_id: p.sync_id ?? null, trigger: p.trigger ?? null };
    this.notify(n);
  }

  private onGovernance(event: 'schema_drift_detected' | 'pii_detected', p: SchemaDriftDetected | PiiDetected): void {
    const source = typeof p.source === 'string' ? p.source : null;
    const schedule = source ? this.scheduleOf(source) : undefined;
    const n = this.base(event, schedule?.name ?? '', source ? [source] : [], '/catalog');
    const { source: _s, ...rest } = p;
    n.metadata = withoutSamples(rest) as Record<string, unknown>;
    this.notify(n);
  }

  private onMetricAlert(p: MetricAlert): void {
    const n = this.base('metric_alert', '', [], '/');
    n.error = p.message ?? `${p.monitor} (${p.source_table}) changed ${p.change_pct ?? '?'}% ${p.compare}, beyond the ${p.threshold}% threshold`;
    n.metadata = withoutSamples(p) as Record<string, unknown>;
    this.notify(n);
  }

  private base(event: WebhookEvent, schedule: string, sources: string[], page = '/schedules'): Notification {
    return {
      event_type: event, schedule_name: schedule, sources, error: null, duration_seconds: 0, occurred_at: this.d.clock.now().toISOString(),
      dashboard_url: `${this.d.baseUrl()}${page}`, rows_loaded: null, stale_hours: null, attempt_number: null, next_retry_at: null, metadata: null,
    };
  }

  private schedule(name: string): Schedule | undefined {
    return this.d.settings().schedules.find((s) => s.name === name);
  }

  private scheduleOf(source: string): Schedule | undefined {
    return this.d.settings().schedules.find((s) => s.enabled && (s.type === 'sync' || s.type === 'sync_only') && s.sources?.includes(source));
  }

  private scheduledSources(s: SchedulesFile): Map<string, Schedule> {
    const out = new Map<string, Schedule>();
    for (const sch of s.schedules) {
      if (!sch.enabled || (sch.type !== 'sync' && sch.type !== 'sync_only')) continue;
      for (const src of sch.sources ?? []) if (!out.has(src)) out.set(src, sch);
    }
    return out;
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch((err) => this.d.log.error({ err }, 'notification delivery crashed'));
    this.pending.add(q);
    void q.finally(() => this.pending.delete(q));
  }
}
