import { CronExpressionParser } from 'cron-parser';
import { cronExpression, type Schedule } from './config.js';

/** The parts of a schedule that decide when it fires; a change to any of them resets its next run. */
export function timingSignature(s: Pick<Schedule, 'cron' | 'timezone' | 'start_date'>): string {
  const start = s.start_date === undefined ? '' : new Date(s.start_date as string | Date).toISOString();
  return `${cronExpression(s.cron)}|${s.timezone ?? ''}|${start}`;
}

/**
 * The first fire time strictly after `after`, in the schedule's timezone (DST-correct through
 * cron-parser's tz support), never before `start_date`. `timezone` defaults to the server's zone.
 */
export function nextRunAfter(s: Pick<Schedule, 'cron' | 'timezone' | 'start_date'>, after: Date): Date {
  let from = after;
  if (s.start_date !== undefined) {
    const start = new Date(s.start_date as string | Date);
    // cron-parser returns times strictly after currentDate; step back 1 ms so start_date itself can match
    if (start.getTime() > from.getTime()) from = new Date(start.getTime() - 1);
  }
  const tz = s.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const it = CronExpressionParser.parse(cronExpression(s.cron), { currentDate: from, tz });
  return it.next().toDate();
}

/** How many fire times fall in (from, to]; bounded so a long outage with a per-minute cron stays cheap. */
export function countRunsBetween(s: Pick<Schedule, 'cron' | 'timezone' | 'start_date'>, from: Date, to: Date, cap = 10_000): number {
  let n = 0;
  let t = new Date(from.getTime() - 1);
  while (n < cap) {
    t = nextRunAfter(s, t);
    if (t.getTime() > to.getTime()) break;
    n++;
  }
  return n;
}
