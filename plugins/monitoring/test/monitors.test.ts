import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MetricAlert } from '../src/index.js';
import { bootMonitoring, LAST_DAY, MONITORS, seedOrders } from './helpers.js';

const run = (app: Awaited<ReturnType<typeof bootMonitoring>>['app'], query = '') =>
  app.http.inject({ method: 'POST', url: `/api/monitoring/run${query}` });

test('a 50% drop of one segment on the last day alerts once, naming that segment first', async () => {
  const { app } = await bootMonitoring({ '.basin/monitors.yml': MONITORS });
  try {
    await seedOrders(app);
    const alerts: MetricAlert[] = [];
    app.events.on('metric_alert', (p) => void alerts.push(p as MetricAlert));

    const r = await run(app);
    assert.equal(r.statusCode, 200, r.body);
    const [res] = r.json().results;
    assert.equal(res.monitor, 'daily_revenue');
    assert.equal(res.period, LAST_DAY);
    // 3 regions × 100 the day before; EU has 50 on the last day; refunds are filtered out
    assert.equal(res.value, 250);
    assert.equal(res.baseline, 300);
    assert.equal(res.change_pct, -16.67);
    assert.equal(res.status, 'alert');
    assert.equal(res.alert_emitted, true);

    await app.events.idle();
    assert.equal(alerts.length, 1);
    const a = alerts[0]!;
    assert.equal(a.monitor, 'daily_revenue');
    assert.equal(a.source_table, 'raw_shop.orders');
    assert.equal(a.period, LAST_DAY);
    assert.equal(a.threshold, 10);
    assert.equal(a.change_pct, -16.67);
    const region = a.segments.filter((s) => s.dimension === 'region');
    assert.deepEqual(region[0], { dimension: 'region', segment: 'EU', value: 50, baseline: 100, change_pct: -50, delta: -50 });
    assert.ok(region.slice(1).every((s) => s.delta === 0), JSON.stringify(region));
    // the lost EU orders are spread over both channels, so no channel moved as much as the EU
    const channel = a.segments.filter((s) => s.dimension === 'channel');
    assert.ok(channel.every((s) => Math.abs(s.delta!) < 50), JSON.stringify(channel));
    // segment change_pct is rounded to two decimals like the top-level value
    assert.ok(a.segments.every((s) => s.change_pct === null || Math.round(s.change_pct * 100) / 100 === s.change_pct), JSON.stringify(a.segments));

    // same period again: stored as an alert, but no second event
    const again = await run(app);
    assert.equal(again.json().results[0].status, 'alert');
    assert.equal(again.json().results[0].alert_emitted, false);
    await app.events.idle();
    assert.equal(alerts.length, 1);

    // cached analysis and history
    const cached = (await app.http.inject({ method: 'GET', url: '/api/monitoring' })).json();
    assert.equal(cached.enabled, true);
    assert.equal(cached.monitors[0].latest.status, 'alert');
    assert.equal(cached.monitors[0].latest.value, 250);
    assert.equal(cached.last_run.monitors, 1);
    const hist = (await app.http.inject({ method: 'GET', url: '/api/monitoring/history?days=7' })).json();
    assert.equal(hist.total, 2);
    assert.equal(hist.items.length, 2);
  } finally {
    await app.close();
  }
});

test('a new period alerts again; compare methods use their own baselines', async () => {
  const { app, clock } = await bootMonitoring({
    '.basin/monitors.yml': `monitors:
  - name: wow_orders
    source_table: raw_shop.orders
    value_expression: count(*)
    filter: status = 'paid'
    compare: week_over_week
    warn_threshold: 5
  - name: avg7
    source_table: raw_shop.orders
    value_expression: count(*)
    compare: rolling_7day_avg
    filter: status = 'paid'
  - name: avg30
    source_table: raw_shop.orders
    value_expression: count(*)
    compare: rolling_30day_avg
    filter: status = 'paid'
`,
  });
  try {
    await seedOrders(app);
    const alerts: MetricAlert[] = [];
    app.events.on('metric_alert', (p) => void alerts.push(p as MetricAlert));
    const res = Object.fromEntries((await run(app)).json().results.map((x: { monitor: string }) => [x.monitor, x]));
    assert.equal(res.wow_orders.baseline, 30);
    assert.equal(res.wow_orders.value, 25);
    assert.equal(res.wow_orders.threshold, 5, 'warn_threshold is the alias of alert_threshold');
    assert.equal(res.avg7.baseline, 30);
    assert.equal(res.avg30.baseline, 30);
    assert.equal(res.avg7.status, 'ok', 'no threshold, no alert');

    // the next day has data too and still differs from a week before: a new period, a new alert
    await app.warehouse.write(async (c) => {
      await c.run(`INSERT INTO raw_shop.orders SELECT 200000 + range, TIMESTAMP '2026-03-11 09:00:00', 'US', 'web', 10.0, 'paid' FROM range(3)`);
    });
    clock.set('2026-03-12T06:00:00Z');
    const next = (await run(app)).json().results.find((x: { monitor: string }) => x.monitor === 'wow_orders');
    assert.equal(next.period, '2026-03-11');
    assert.equal(next.alert_emitted, true);
    await app.events.idle();
    assert.deepEqual(alerts.map((a) => [a.monitor, a.period]), [['wow_orders', LAST_DAY], ['wow_orders', '2026-03-11']]);
  } finally {
    await app.close();
  }
});

test('injection through value_expression or filter is refused with 400 and nothing runs', async () => {
  for (const [field, bad] of [
    ['filter', `1); DROP TABLE raw_shop.orders; --`],
    ['filter', `status = 'paid' UNION SELECT 1`],
    ['filter', `status = 'paid' ORDER BY 1`],
    ['filter', `status = 'paid' /* unterminated`],
    ['value_expression', `sum(amount)); DROP TABLE raw_shop.orders; --`],
    ['value_expression', `sum(amount), (SELECT 1)`],
    ['value_expression', `(SELECT count(*) FROM read_csv('/etc/passwd'))`],
    ['value_expression', `sum(amount) FROM raw_shop.orders; DROP TABLE raw_shop.orders; SELECT 1`],
    ['value_expression', `sum(amount) OVER ()`],
  ] as const) {
    const yml = `monitors:
  - name: m
    source_table: raw_shop.orders
    value_expression: ${JSON.stringify(field === 'value_expression' ? bad : 'sum(amount)')}
    ${field === 'filter' ? `filter: ${JSON.stringify(bad)}` : ''}
`;
    const { app } = await bootMonitoring({ '.basin/monitors.yml': yml });
    try {
      await seedOrders(app);
      const r = await run(app);
      assert.equal(r.statusCode, 400, `${bad}: ${r.body}`);
      assert.equal(r.json().error.code, 'monitor_invalid');
      assert.equal(r.json().error.details[0].field, field, bad);
      const n = await app.warehouse.query<{ n: string }>('SELECT count(*) AS n FROM raw_shop.orders');
      assert.ok(Number(n[0]!.n) > 0, 'the table is still there');
      assert.equal((await app.http.inject({ method: 'GET', url: '/api/monitoring' })).json().last_run, null, 'nothing ran');
    } finally {
      await app.close();
    }
  }
});

test('a comment in a filter cannot swallow the rest of the monitor SQL (DuckDB re-prints the expression)', async () => {
  const yml = `monitors:\n  - name: m\n    source_table: raw_shop.orders\n    value_expression: "sum(amount) -- all of it"\n    filter: "status = 'paid' -- only paid"\n    compare: prior_period\n`;
  const { app } = await bootMonitoring({ '.basin/monitors.yml': yml });
  try {
    await seedOrders(app);
    const r = await run(app);
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().results[0].value, 250, 'filter applied, refunds excluded');
    assert.equal(r.json().results[0].baseline, 300);
  } finally {
    await app.close();
  }
});

test('identifiers must exist: unknown table, drill-down or date column are refused', async () => {
  const cases = [
    ['source_table', 'source_table: raw_shop.nope'],
    ['drill_down/1', 'source_table: raw_shop.orders\n    drill_down: [region, "region\\"; DROP TABLE x; --"]'],
    ['date_column', 'source_table: raw_shop.orders\n    date_column: region'],
  ];
  for (const [field, lines] of cases) {
    const { app } = await bootMonitoring({ '.basin/monitors.yml': `monitors:\n  - name: m\n    value_expression: count(*)\n    ${lines}\n` });
    try {
      await seedOrders(app);
      const r = await run(app);
      assert.equal(r.statusCode, 400, r.body);
      assert.equal(r.json().error.details[0].field, field, r.body);
    } finally {
      await app.close();
    }
  }
});

test('?source= runs only that source\'s monitors; sync_completed runs them after a debounce', async () => {
  const { app } = await bootMonitoring({
    '.basin/monitors.yml': `${MONITORS}  - name: other_source
    source_table: raw_crm.deals
    value_expression: count(*)
`,
  });
  try {
    await seedOrders(app);
    await app.warehouse.write(async (c) => {
      await c.run('CREATE SCHEMA raw_crm');
      await c.run(`CREATE TABLE raw_crm.deals AS SELECT DATE '${LAST_DAY}' - CAST(range AS INTEGER) AS created_on FROM range(20)`);
    });
    const r = await run(app, '?source=shop');
    assert.equal(r.statusCode, 200, r.body);
    assert.deepEqual(r.json().results.map((x: { monitor: string }) => x.monitor), ['daily_revenue']);
    const none = await run(app, '?source=unknown');
    assert.deepEqual(none.json().results, []);

    const engine = app.container.resolve<{ idle(): Promise<void> }>('monitoring');
    const before = (await app.http.inject({ method: 'GET', url: '/api/monitoring/history' })).json().total;
    await app.events.emit('sync_completed', { source: 'crm', sync_id: 's1', rows: 20, tables: [{ name: 'deals', schema: 'raw_crm', rows: 20 }], duration_seconds: 1, trigger: 'api' } as never);
    // the run starts after the debounce; wait for it without asserting on time
    for (let i = 0; i < 100 && (await app.http.inject({ method: 'GET', url: '/api/monitoring/history' })).json().total === before; i++) {
      await new Promise((res) => setTimeout(res, 100));
      await engine.idle();
    }
    const hist = (await app.http.inject({ method: 'GET', url: '/api/monitoring/history' })).json();
    assert.equal(hist.total, before + 1);
    assert.equal(hist.items[0].monitor, 'other_source');
    assert.equal(hist.items[0].status, 'ok');
    assert.equal(hist.items[0].baseline, 1);
  } finally {
    await app.close();
  }
});

test('metrics.yml with key metrics and warn_threshold is read as monitors.yml', async () => {
  const { app } = await bootMonitoring(
    { '.basin/metrics.yml': MONITORS.replace('monitors:', 'metrics:').replace('alert_threshold', 'warn_threshold') },
    undefined,
    ['.basin/monitors.yml'],
  );
  try {
    const cfg = (await app.http.inject({ method: 'GET', url: '/api/monitoring' })).json();
    assert.equal(cfg.monitors.length, 1);
    assert.equal(cfg.monitors[0].name, 'daily_revenue');
    assert.equal(cfg.monitors[0].alert_threshold, 10);
    assert.deepEqual(cfg.monitors[0].drill_down, ['region', 'channel']);
  } finally {
    await app.close();
  }
});
