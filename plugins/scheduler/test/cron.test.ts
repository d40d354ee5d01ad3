import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import LuxonSettings from '../src/luxon-settings.cjs';
import { CRON_PRESETS, cronProblem, timezoneProblem } from '../src/config.js';
import { countRunsBetween, nextRunAfter } from '../src/cron.js';

const at = (iso: string) => new Date(iso);

test('presets expand to their SPEC expressions and fire accordingly', () => {
  assert.deepEqual(CRON_PRESETS, { every_15m: '*/15 * * * *', every_hour: '0 * * * *', every_6h: '0 */6 * * *', daily: '0 6 * * *', weekly: '0 6 * * 1' });
  const from = at('2026-03-04T10:07:00Z'); // a Wednesday
  const utc = (cron: string) => nextRunAfter({ cron, timezone: 'UTC' }, from).toISOString();
  assert.equal(utc('every_15m'), '2026-03-04T10:15:00.000Z');
  assert.equal(utc('every_hour'), '2026-03-04T11:00:00.000Z');
  assert.equal(utc('every_6h'), '2026-03-04T12:00:00.000Z');
  assert.equal(utc('daily'), '2026-03-05T06:00:00.000Z');
  assert.equal(utc('weekly'), '2026-03-09T06:00:00.000Z'); // next Monday
});

test('5-field expressions with lists, ranges and steps', () => {
  const s = { cron: '0,30 9-17/4 * * mon-fri', timezone: 'UTC' };
  const seq: string[] = [];
  let t = at('2026-03-06T16:00:00Z'); // Friday
  for (let i = 0; i < 4; i++) seq.push((t = nextRunAfter(s, t)).toISOString());
  assert.deepEqual(seq, ['2026-03-06T17:00:00.000Z', '2026-03-06T17:30:00.000Z', '2026-03-09T09:00:00.000Z', '2026-03-09T09:30:00.000Z']);
});

test('timezone: a daily 06:00 in New York stays 06:00 local across the spring DST change', () => {
  const s = { cron: 'daily', timezone: 'America/New_York' };
  let t = at('2026-03-06T12:00:00Z');
  const runs: string[] = [];
  for (let i = 0; i < 3; i++) runs.push((t = nextRunAfter(s, t)).toISOString());
  // EST (UTC-5) until 8 March 2026 02:00, then EDT (UTC-4)
  assert.deepEqual(runs, ['2026-03-07T11:00:00.000Z', '2026-03-08T10:00:00.000Z', '2026-03-09T10:00:00.000Z']);
});

test('timezone: a time that does not exist on the spring-forward day fires once, an hour later', () => {
  const s = { cron: '30 2 * * *', timezone: 'Europe/Berlin' };
  // Berlin skips 02:00-03:00 on 29 March 2026
  const runs: string[] = [];
  let t = at('2026-03-28T12:00:00Z');
  for (let i = 0; i < 3; i++) runs.push((t = nextRunAfter(s, t)).toISOString());
  assert.equal(runs[0], '2026-03-29T01:30:00.000Z'); // 03:30 CEST: 02:30 does not exist that day
  assert.equal(runs[1], '2026-03-30T00:30:00.000Z'); // 02:30 CEST
  assert.equal(new Set(runs).size, 3);
});

test('start_date: no run before it, and a run exactly at it counts', () => {
  const s = { cron: 'every_hour', timezone: 'UTC', start_date: '2026-05-01T00:00:00Z' };
  assert.equal(nextRunAfter(s, at('2026-03-01T00:00:00Z')).toISOString(), '2026-05-01T00:00:00.000Z');
  assert.equal(nextRunAfter(s, at('2026-05-01T00:00:00Z')).toISOString(), '2026-05-01T01:00:00.000Z');
});

test('countRunsBetween counts fire times in the window', () => {
  assert.equal(countRunsBetween({ cron: 'every_15m', timezone: 'UTC' }, at('2026-01-01T00:00:00Z'), at('2026-01-01T01:00:00Z')), 5);
});

test('cron and timezone problems are reported', () => {
  assert.equal(cronProblem('*/5 * * * *'), null);
  assert.match(cronProblem('61 * * * *')!, /61/);
  assert.equal(timezoneProblem('Europe/Berlin'), null);
  assert.match(timezoneProblem('Mars/Olympus')!, /unknown timezone/);
});

test('a zone outside ICU\'s canonical list is still checked by ICU: aliases and other spellings pass', () => {
  assert.ok(!Intl.supportedValuesOf('timeZone').includes('US/Eastern'));
  assert.equal(timezoneProblem('US/Eastern'), null);
  assert.equal(timezoneProblem('europe/berlin'), null);
  assert.equal(timezoneProblem('UTC'), null);
  assert.match(timezoneProblem('Europe/Nowhere')!, /unknown timezone "Europe\/Nowhere"/);
});

test('cron validation sets luxon\'s locale for its own call only, on the luxon instance cron-parser uses', () => {
  // the instance cron-parser requires (its CommonJS build) is the one the shim hands out
  const fromCronParser = createRequire(createRequire(import.meta.url).resolve('cron-parser'))('luxon').Settings;
  assert.equal(LuxonSettings, fromCronParser);
  const before = LuxonSettings.defaultLocale;
  assert.equal(cronProblem('0 6 * * 1-5'), null);
  assert.match(cronProblem('0 6 31 2 *')!, /day of month/i);
  assert.equal(LuxonSettings.defaultLocale, before);
  // and a locale someone set on purpose survives it
  LuxonSettings.defaultLocale = 'de-DE';
  try {
    assert.equal(cronProblem('daily'), null);
    assert.equal(LuxonSettings.defaultLocale, 'de-DE');
  } finally {
    LuxonSettings.defaultLocale = before;
  }
});
