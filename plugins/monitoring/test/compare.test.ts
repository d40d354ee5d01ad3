import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays, baselineFor, changePct, crosses } from '../src/compare.js';
import { bootMonitoring } from './helpers.js';

test('baselines per compare method, with missing days', () => {
  const s = new Map<string, number | null>([
    ['2026-03-01', 70],
    ['2026-03-05', 10],
    ['2026-03-07', 20],
    ['2026-03-08', 40],
  ]);
  assert.equal(baselineFor(s, '2026-03-08', 'prior_period'), 20);
  assert.equal(baselineFor(s, '2026-03-08', 'week_over_week'), 70);
  assert.equal(baselineFor(s, '2026-03-08', 'rolling_7day_avg'), (70 + 10 + 20) / 3, 'mean of the days present among the 7 before');
  assert.equal(baselineFor(s, '2026-03-09', 'rolling_7day_avg'), (10 + 20 + 40) / 3, 'the 1st is out of the window');
  assert.equal(baselineFor(s, '2026-03-08', 'rolling_30day_avg'), (70 + 10 + 20) / 3);
  assert.equal(baselineFor(s, '2026-03-06', 'prior_period'), 10);
  assert.equal(baselineFor(s, '2026-03-07', 'prior_period'), null);
  assert.equal(addDays('2026-03-01', -1), '2026-02-28');
});

test('percent change and threshold crossing', () => {
  assert.equal(changePct(50, 100), -50);
  assert.equal(changePct(150, -100), 250);
  assert.equal(changePct(0, 0), 0);
  assert.equal(changePct(5, 0), null);
  assert.equal(crosses(89, 100, 10), true);
  assert.equal(crosses(91, 100, 10), false);
  assert.equal(crosses(110, 100, 10), true, 'absolute: rises cross too');
  assert.equal(crosses(5, 0, 10), true, 'from zero to something crosses');
  assert.equal(crosses(50, 100, undefined), false);
  assert.equal(crosses(null, 100, 10), false);
});

test('an explicit TIMESTAMP WITH TIME ZONE date_column (not the first date column) is bucketed by UTC day', async () => {
  const { app } = await bootMonitoring({
    '.basin/monitors.yml': `monitors:
  - name: events
    source_table: raw_app.events
    value_expression: count(*)
    date_column: seen_at
    compare: prior_period
`,
  });
  try {
    await app.warehouse.write(async (c) => {
      await c.run('CREATE SCHEMA raw_app');
      // 23:30 UTC on the 9th is the 10th in Europe; the UTC day counts
      await c.run(`CREATE TABLE raw_app.events AS SELECT * FROM (VALUES
        (DATE '2026-03-01', TIMESTAMPTZ '2026-03-09 23:30:00+00'), (DATE '2026-03-01', TIMESTAMPTZ '2026-03-09 12:00:00+00'),
        (DATE '2026-03-01', TIMESTAMPTZ '2026-03-10 01:00:00+02')) t(first_seen, seen_at)`);
    });
    const r = await app.http.inject({ method: 'POST', url: '/api/monitoring/run' });
    const res = r.json().results[0];
    assert.equal(res.period, '2026-03-09', '01:00+02 on the 10th is the 9th in UTC');
    assert.equal(res.value, 3);
    assert.equal(res.status, 'insufficient_data');
  } finally {
    await app.close();
  }
});
