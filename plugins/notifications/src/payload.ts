/** Webhook event values (SPEC "Webhook notifications"). */
export type WebhookEvent = 'sync_completed' | 'sync_failed' | 'sync_stale' | 'sync_retrying' | 'schema_drift_detected' | 'pii_detected' | 'metric_alert';

/** The internal notification model; field names differ from the wire format (SPEC: event_type → event, …). */
export interface Notification {
  event_type: WebhookEvent;
  schedule_name: string;
  sources: string[];
  error: string | null;
  duration_seconds: number;
  occurred_at: string;
  dashboard_url: string;
  rows_loaded: number | null;
  stale_hours: number | null;
  attempt_number: number | null;
  next_retry_at: string | null;
  metadata: Record<string, unknown> | null;
  /** a test message from POST /api/notifications/test (not a wire field) */
  test?: boolean;
}

/** The `generic` JSON body, exactly the SPEC's twelve fields. */
export function genericPayload(n: Notification): Record<string, unknown> {
  return {
    event: n.event_type,
    schedule: n.schedule_name,
    sources: n.sources,
    error: n.error,
    duration_seconds: n.duration_seconds,
    timestamp: n.occurred_at,
    dashboard_url: n.dashboard_url,
    rows_loaded: n.rows_loaded,
    stale_hours: n.stale_hours,
    attempt_number: n.attempt_number,
    next_retry_at: n.next_retry_at,
    metadata: n.metadata,
  };
}

const TITLES: Record<WebhookEvent, string> = {
  sync_completed: ':white_check_mark: Sync completed',
  sync_failed: ':x: Sync failed',
  sync_stale: ':hourglass: Data is stale',
  sync_retrying: ':repeat: Sync failed, retrying',
  schema_drift_detected: ':warning: Schema drift detected',
  pii_detected: ':lock: PII detected',
  metric_alert: ':chart_with_downwards_trend: Metric alert',
};

/** Escapes the three characters chat-tool mrkdwn treats as markup. */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One-line summary used as the chat message's `text` (shown in notifications and by clients without blocks). */
export function summary(n: Notification): string {
  const what = n.test ? 'Test notification from Basin' : TITLES[n.event_type].replace(/^:[a-z_]+: /, '');
  const parts = [what];
  if (n.schedule_name) parts.push(`schedule ${n.schedule_name}`);
  if (n.sources.length) parts.push(`sources ${n.sources.join(', ')}`);
  if (n.rows_loaded !== null) parts.push(`${n.rows_loaded} rows`);
  if (n.stale_hours !== null) parts.push(`last loaded ${n.stale_hours} h ago`);
  if (n.attempt_number !== null && n.next_retry_at) parts.push(`attempt ${n.attempt_number} failed, next try ${n.next_retry_at}`);
  if (n.error) parts.push(`error: ${n.error}`);
  return parts.join(' · ');
}

/** The `chat` body: an incoming-webhook message with `text` and structured `blocks` (header, fields, error, link). */
export function chatPayload(n: Notification): Record<string, unknown> {
  const fields: Array<{ type: 'mrkdwn'; text: string }> = [];
  const field = (label: string, value: string) => fields.push({ type: 'mrkdwn', text: `*${label}*\n${esc(value)}` });
  if (n.schedule_name) field('Schedule', n.schedule_name);
  if (n.sources.length) field('Sources', n.sources.join(', '));
  if (n.rows_loaded !== null) field('Rows loaded', String(n.rows_loaded));
  if (n.duration_seconds) field('Duration', `${n.duration_seconds.toFixed(1)} s`);
  if (n.stale_hours !== null) field('Hours since last load', String(n.stale_hours));
  if (n.attempt_number !== null) field('Failed attempt', String(n.attempt_number));
  if (n.next_retry_at) field('Next retry', n.next_retry_at);
  const blocks: Array<Record<string, unknown>> = [{ type: 'header', text: { type: 'plain_text', text: n.test ? 'Basin test notification' : TITLES[n.event_type].replace(/^:[a-z_]+: /, ''), emoji: true } }];
  if (fields.length) blocks.push({ type: 'section', fields: fields.slice(0, 10) });
  if (n.error) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*Error*\n\`\`\`${esc(n.error).slice(0, 2800)}\`\`\`` } });
  if (n.metadata && !n.test) {
    const meta = JSON.stringify(n.metadata, null, 1);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*Details*\n\`\`\`${esc(meta).slice(0, 2800)}\`\`\`` } });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `<${n.dashboard_url}|Open Basin> · ${n.occurred_at}` }] });
  return { text: `${TITLES[n.event_type].split(' ')[0]} ${summary(n)}`, blocks };
}
