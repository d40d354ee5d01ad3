import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { validateProject } from '@basin/core';
import { makeProject } from '@basin/test';
import monitoringPlugin from '../src/index.js';
import { bootMonitoring, MONITORS, seedOrders } from './helpers.js';

const SECOND = `  - name: order_count
    source_table: raw_shop.orders
    value_expression: count(*)
    compare: prior_period
`;

test('monitors.yml edits apply without a restart; an invalid edit keeps the running monitors and is reported', async () => {
  const { app } = await bootMonitoring({ '.basin/monitors.yml': MONITORS });
  try {
    await seedOrders(app);
    const file = path.join(app.config.projectDir, '.basin/monitors.yml');
    const names = async () => (await app.http.inject({ method: 'GET', url: '/api/monitoring' })).json().monitors.map((m: { name: string }) => m.name);
    assert.deepEqual(await names(), ['daily_revenue']);

    fs.writeFileSync(file, MONITORS + SECOND);
    assert.deepEqual(await names(), ['daily_revenue', 'order_count']);
    const run = await app.http.inject({ method: 'POST', url: '/api/monitoring/run' });
    assert.deepEqual(run.json().results.map((r: { monitor: string }) => r.monitor), ['daily_revenue', 'order_count']);

    // an expression the runtime guard refuses: nothing changes, the error is reported
    fs.writeFileSync(file, MONITORS + SECOND.replace('count(*)', '(SELECT count(*) FROM raw_shop.orders)') + '\n');
    assert.deepEqual(await names(), ['daily_revenue', 'order_count']);
    let health = await app.health();
    const err = health.monitors_config_error as { file: string; message: string } | null;
    assert.equal(err?.file, '.basin/monitors.yml');
    assert.match(err!.message, /monitors\/1\/value_expression/);

    // a schema error is kept out the same way
    fs.writeFileSync(file, MONITORS.replace('prior_period', 'sometimes'));
    assert.deepEqual(await names(), ['daily_revenue', 'order_count']);
    assert.match(((await app.health()).monitors_config_error as { message: string }).message, /compare/);

    // fixed: applied, error cleared
    fs.writeFileSync(file, MONITORS);
    assert.deepEqual(await names(), ['daily_revenue']);
    health = await app.health();
    assert.equal(health.monitors_config_error, null);
  } finally {
    await app.close();
  }
});

test('basin config validate checks monitor expressions with the runtime guard', async () => {
  const dir = makeProject({ '.basin/monitors.yml': MONITORS.replace("status = 'paid'", "status = 'paid'; DROP TABLE raw_shop.orders") + SECOND.replace('count(*)', 'count(*) OVER ()') });
  const issues = (await validateProject(dir, [monitoringPlugin])).filter((i) => i.file === '.basin/monitors.yml');
  assert.deepEqual(issues.map((i) => [i.path, i.severity]), [['/monitors/0/filter', 'error'], ['/monitors/1/value_expression', 'error']]);
  fs.writeFileSync(path.join(dir, '.basin/monitors.yml'), MONITORS + SECOND);
  assert.deepEqual((await validateProject(dir, [monitoringPlugin])).filter((i) => i.file === '.basin/monitors.yml'), []);
});
