import { Type, type Static } from '@sinclair/typebox';
import type { ConfigFileSpec } from '@basin/core';
import { CronExpressionParser } from 'cron-parser';
import LuxonSettings from './luxon-settings.cjs';

export const CRON_PRESETS: Record<string, string> = {
  every_15m: '*/15 * * * *',
  every_hour: '0 * * * *',
  every_6h: '0 */6 * * *',
  daily: '0 6 * * *',
  weekly: '0 6 * * 1',
};

const NAME = '^[a-z][a-z0-9_]*$';

export const ScheduleSchema = Type.Object(
  {
    name: Type.String({ pattern: NAME }),
    type: Type.Union([Type.Literal('sync'), Type.Literal('sync_only'), Type.Literal('tx'), Type.Literal('script'), Type.Literal('backup')], { default: 'sync' }),
    cron: Type.String({ minLength: 1 }),
    sources: Type.Optional(Type.Array(Type.String())),
    script_path: Type.Optional(Type.String()),
    enabled: Type.Boolean({ default: true }),
    timezone: Type.Optional(Type.String()),
    start_date: Type.Optional(Type.Union([Type.String(), Type.Date()])),
    misfire_grace_time: Type.Optional(Type.Integer({ minimum: 0 })),
    timeout_minutes: Type.Optional(Type.Integer({ minimum: 1 })),
    notify_on: Type.Array(Type.Union([Type.Literal('failure'), Type.Literal('success'), Type.Literal('stale')]), { default: [] }),
    tx_command: Type.Optional(Type.String()),
    /** beyond SPEC: a `backup` job also uploads .env and the other secret files */
    include_secrets: Type.Optional(Type.Boolean()),
    /** beyond SPEC: retry a failed run */
    retries: Type.Integer({ minimum: 0, default: 0 }),
    retry_delay_seconds: Type.Integer({ minimum: 0, default: 300 }),
  },
  { additionalProperties: false },
);
export type Schedule = Static<typeof ScheduleSchema>;

export const WebhookSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    url: Type.String({ pattern: '^https?://' }),
    format: Type.Union([Type.Literal('generic'), Type.Literal('chat')], { default: 'generic' }),
  },
  { additionalProperties: false },
);

export const NotificationsSchema = Type.Object(
  {
    webhooks: Type.Array(WebhookSchema, { default: [] }),
    on_failure: Type.Boolean({ default: true }),
    on_success: Type.Boolean({ default: true }),
    on_stale: Type.Boolean({ default: true }),
    on_governance: Type.Boolean({ default: true }),
    on_analysis: Type.Boolean({ default: true }),
    stale_threshold_hours: Type.Integer({ minimum: 1, default: 24 }),
  },
  { additionalProperties: false, default: {} },
);
export type Notifications = Static<typeof NotificationsSchema>;

export const SchedulesFile = Type.Object(
  {
    schedules: Type.Array(ScheduleSchema, { default: [] }),
    notifications: NotificationsSchema,
  },
  { additionalProperties: false, default: {} },
);
export type SchedulesFile = Static<typeof SchedulesFile>;

/** the 5-field expression a schedule's `cron` stands for (a preset name or the expression itself) */
export function cronExpression(expr: string): string {
  return CRON_PRESETS[expr] ?? expr.trim();
}

// Config validation runs on every start before Basin listens, and the first Intl.DateTimeFormat of a
// process loads ICU's locale data (~30 ms here). The two checks below answer without it for what
// configs hold; only a name outside ICU's canonical list (an alias, another spelling, a typo) pays it
// here. The scheduler's planning still loads it before listening, but only when it has no saved next
// run to use (a project's first start, an edited schedule, a run due while the server was down).
let canonicalZones: Set<string> | undefined;

/** null when the IANA zone name is known to this Node's ICU, else a message */
export function timezoneProblem(tz: string): string | null {
  // ICU's canonical zone names (~2 ms, no locale data); aliases such as US/Eastern are checked below
  canonicalZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonicalZones.has(tz)) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return null;
  } catch {
    return `unknown timezone "${tz}" (use an IANA name such as Europe/Berlin or UTC)`;
  }
}

/** null when the cron expression parses fully (ranges, steps, names), else the parser's message */
export function cronProblem(expr: string): string | null {
  // cron-parser builds a luxon date, whose locale is the system's unless one is set: a fixed one keeps
  // ICU unloaded. Set for this synchronous call only, so nothing else in the process sees it.
  const locale = LuxonSettings.defaultLocale;
  LuxonSettings.defaultLocale = 'en-US';
  try {
    CronExpressionParser.parse(cronExpression(expr));
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    LuxonSettings.defaultLocale = locale;
  }
}

/** a script path relative to scripts/ ("nightly.py" or "scripts/nightly.py"); null when it escapes lexically */
export function scriptRelative(p: string): string | null {
  const rel = p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^scripts\//, '');
  if (!rel || rel.startsWith('/') || rel.split('/').some((seg) => seg === '..')) return null;
  return rel;
}

const CRON_FIELD = /^(\*|\d+|\d+-\d+)(\/\d+)?(,(\*|\d+|\d+-\d+)(\/\d+)?)*$/;
/** true for a preset or a 5-field cron expression (field syntax only; the scheduler parses fully) */
export function isCronLike(expr: string): boolean {
  if (CRON_PRESETS[expr]) return true;
  const parts = expr.trim().split(/\s+/);
  return parts.length === 5 && parts.every((p) => CRON_FIELD.test(p) || /^[A-Za-z]{3}(-[A-Za-z]{3})?(,[A-Za-z]{3})*$/.test(p));
}

export const schedulesFileSpec: ConfigFileSpec = {
  id: 'schedules',
  path: '.basin/schedules.yml',
  format: 'yaml',
  schema: SchedulesFile,
  validate(value: SchedulesFile, ctx) {
    const seen = new Set<string>();
    value.schedules.forEach((s, i) => {
      if (seen.has(s.name)) ctx.issue(`/schedules/${i}/name`, `duplicate schedule name "${s.name}"`);
      seen.add(s.name);
      if (!isCronLike(s.cron)) ctx.issue(`/schedules/${i}/cron`, `"${s.cron}" is not a 5-field cron expression or preset`, { expected: `cron or one of ${Object.keys(CRON_PRESETS).join(', ')}` });
      else {
        const bad = cronProblem(s.cron);
        if (bad) ctx.issue(`/schedules/${i}/cron`, `"${s.cron}" is not a valid cron expression: ${bad}`);
      }
      if (s.timezone !== undefined) {
        const bad = timezoneProblem(s.timezone);
        if (bad) ctx.issue(`/schedules/${i}/timezone`, bad);
      }
      if (s.start_date !== undefined && Number.isNaN(new Date(s.start_date as string | Date).getTime())) {
        ctx.issue(`/schedules/${i}/start_date`, `"${String(s.start_date)}" is not a date-time (use ISO 8601, e.g. 2026-01-31T06:00:00Z)`);
      }
      if (s.type === 'script' && s.script_path && !scriptRelative(s.script_path)) ctx.issue(`/schedules/${i}/script_path`, 'script_path must stay inside scripts/');
      if ((s.type === 'sync' || s.type === 'sync_only') && !s.sources?.length) ctx.issue(`/schedules/${i}/sources`, `a ${s.type} schedule needs a non-empty "sources" list`);
      if (s.type === 'script' && !s.script_path) ctx.issue(`/schedules/${i}/script_path`, 'a script schedule needs "script_path" (a path inside scripts/)');
      if (s.type === 'tx' && !s.tx_command) ctx.issue(`/schedules/${i}/tx_command`, 'a tx schedule needs "tx_command" (for example "run")');
    });
  },
};
