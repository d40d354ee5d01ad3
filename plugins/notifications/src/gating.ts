import type { Notifications, Schedule } from '@basin/plugin-scheduler/contract';
import type { WebhookEvent } from './payload.js';

type Trigger = 'success' | 'failure' | 'stale' | 'governance' | 'analysis';

const TRIGGER: Record<WebhookEvent, Trigger> = {
  sync_completed: 'success',
  sync_failed: 'failure',
  sync_retrying: 'failure',
  sync_stale: 'stale',
  schema_drift_detected: 'governance',
  pii_detected: 'governance',
  metric_alert: 'analysis',
};

/**
 * Whether an event is sent (SPEC gating): on_success / on_failure / on_stale / on_governance /
 * on_analysis, except that a schedule with a non-empty `notify_on` decides success, failure and
 * stale for its own events by itself.
 */
export function shouldNotify(event: WebhookEvent, cfg: Notifications, schedule?: Pick<Schedule, 'notify_on'>): boolean {
  const t = TRIGGER[event];
  if ((t === 'success' || t === 'failure' || t === 'stale') && schedule?.notify_on?.length) return schedule.notify_on.includes(t);
  switch (t) {
    case 'success':
      return cfg.on_success;
    case 'failure':
      return cfg.on_failure;
    case 'stale':
      return cfg.on_stale;
    case 'governance':
      return cfg.on_governance;
    case 'analysis':
      return cfg.on_analysis;
  }
}
