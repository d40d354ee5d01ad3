// Real dbt runs on one shared project (docs generation off to keep dbt invocations few): a failing
// model, cascade on/off through the API, unknown models, and staging files a person edited.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import type { DbtRunner, TxRunRecord } from '../src/index.js';
import { bootTx, txProject, writeRawOrders } from './fixtures/project.js';

let app: BasinApp;
let dir: string;

before(async () => {
  dir = txProject('  auto_tx: false\n');
  fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\ntx:\n  docs_after_run: false\n');
  app = await bootTx(dir);
  await writeRawOrders(app, 4);
  await app.events.emit('sync_completed' as any, { source: 'shop', sync_id: 's1', rows: 4, tables: [], duration_seconds: 1, trigger: 'api' } as any);
  await app.events.idle();
});
after(async () => {
  await app?.close();
});

const runner = () => app.container.resolve<DbtRunner>('txRunner');
const modelsApi = async () => (await app.http.inject({ url: '/api/tx/models' })).json() as any[];
const runViaApi = async (model: string, cascade: boolean): Promise<TxRunRecord> => {
  const res = await app.http.inject({ method: 'POST', url: `/api/tx/models/${model}/run?cascade=${cascade}` });
  assert.equal(res.statusCode, 202, res.body);
  const rec = res.json();
  assert.ok(['queued', 'running'].includes(rec.status));
  return runner().wait(rec.id);
};

test('cascade=false runs the model alone; cascade=true runs it and everything downstream', async () => {
  const alone = await runViaApi('stg_shop__orders', false);
  assert.equal(alone.selector, 'stg_shop__orders');
  assert.equal(alone.status, 'succeeded', alone.error ?? '');
  assert.deepEqual(alone.models.map((m) => m.name), ['stg_shop__orders']);

  const cascade = await runViaApi('stg_shop__orders', true);
  assert.equal(cascade.selector, 'stg_shop__orders+');
  assert.deepEqual(cascade.models.map((m) => m.name).sort(), ['orders_by_status', 'stg_shop__orders']);
  assert.ok(cascade.models.every((m) => m.status === 'success'));
});

test('an unknown model is a 404 and runs nothing', async () => {
  const before = (await app.http.inject({ url: '/api/tx/runs' })).json().total;
  const res = await app.http.inject({ method: 'POST', url: '/api/tx/models/no_such_model/run' });
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().error.code, 'not_found');
  assert.equal((await app.http.inject({ url: '/api/tx/runs' })).json().total, before);
});

test('a failing model surfaces its error; other models keep their results', async () => {
  fs.writeFileSync(path.join(dir, 'tx/models/marts/broken.sql'), 'select * from raw_shop.table_that_does_not_exist\n');
  try {
    const rec = await runner().run({ trigger: 'test', select: 'broken stg_shop__orders' });
    assert.equal(rec.status, 'failed');
    assert.match(rec.error!, /1 node\(s\) failed: broken/);
    const broken = rec.models.find((m) => m.name === 'broken')!;
    assert.equal(broken.status, 'error');
    assert.match(broken.error!, /table_that_does_not_exist/);
    assert.equal(rec.models.find((m) => m.name === 'stg_shop__orders')!.status, 'success');

    const models = await modelsApi();
    const b = models.find((m) => m.name === 'broken');
    assert.equal(b.status, 'error');
    assert.match(b.error, /table_that_does_not_exist/);
    // orders_by_status did not run this time: its last result (success, from the cascade run) stays
    const mart = models.find((m) => m.name === 'orders_by_status');
    assert.equal(mart.status, 'success');
    assert.equal(mart.rows_affected, 2);

    const health = (await app.http.inject({ url: '/api/health/platform' })).json();
    assert.ok(health.tx_failures.some((f: any) => f.model === 'broken' && /table_that_does_not_exist/.test(f.error)));
  } finally {
    fs.rmSync(path.join(dir, 'tx/models/marts/broken.sql'));
  }
});

test('a staging model a person edited is never rewritten; removed raw tables are reported, not deleted', async () => {
  const stgDir = path.join(dir, 'tx/models/staging/shop');
  const edited = path.join(stgDir, 'stg_shop__orders.sql');
  const custom = fs.readFileSync(edited, 'utf8').replace('from source', 'from source\nwhere amount > 0');
  fs.writeFileSync(edited, custom);

  // the next sync adds a column to orders, a new table, and drops nothing yet
  await app.warehouse.write(async (c) => {
    await c.run("ALTER TABLE raw_shop.orders ADD COLUMN channel VARCHAR DEFAULT 'web'");
    await c.run('CREATE TABLE raw_shop.customers AS SELECT 1 AS id');
  });
  const sync = async () => {
    await app.events.emit('sync_completed' as any, { source: 'shop', sync_id: 's2', rows: 1, tables: [], duration_seconds: 1, trigger: 'api' } as any);
    await app.events.idle();
  };
  await sync();
  assert.equal(fs.readFileSync(edited, 'utf8'), custom, 'edited model untouched');
  assert.ok(fs.existsSync(path.join(stgDir, 'stg_shop__customers.sql')), 'model generated for the new table');
  let report = (await app.http.inject({ url: '/api/tx/staging' })).json().find((r: any) => r.source === 'shop');
  assert.deepEqual(report.skipped_edited, ['stg_shop__orders']);
  assert.deepEqual(report.created, ['stg_shop__customers']);

  // an unedited generated model follows its table's columns
  await app.warehouse.write((c) => c.run('ALTER TABLE raw_shop.customers ADD COLUMN name VARCHAR'));
  await sync();
  assert.match(fs.readFileSync(path.join(stgDir, 'stg_shop__customers.sql'), 'utf8'), /"name"/);

  // the raw table disappears: reported, model and source declaration kept
  await app.warehouse.write((c) => c.run('DROP TABLE raw_shop.customers'));
  await sync();
  report = (await app.http.inject({ url: '/api/tx/staging' })).json().find((r: any) => r.source === 'shop');
  assert.deepEqual(report.removed_tables, ['customers']);
  assert.ok(fs.existsSync(path.join(stgDir, 'stg_shop__customers.sql')));
  assert.match(fs.readFileSync(path.join(stgDir, '_shop__sources.yml'), 'utf8'), /name: customers/);
});

test('a run requested while dbt is busy is answered queued and runs after, one dbt at a time', async () => {
  const gate = path.join(dir, 'gate-queue');
  process.env.BASIN_TEST_GATE = gate;
  try {
    const started = new Promise<void>((resolve) => {
      const off = app.events.on('tx_run_started', (p: any) => {
        if (p.model === 'gate') {
          off();
          resolve();
        }
      });
    });
    const first = runner().start({ select: 'gate', trigger: 'test' });
    assert.equal(first.status, 'running');
    await started;
    const res = await app.http.inject({ method: 'POST', url: '/api/tx/models/stg_shop__orders/run?cascade=false' });
    assert.equal(res.statusCode, 202);
    const second = res.json();
    assert.equal(second.status, 'queued');
    assert.equal((await app.http.inject({ url: `/api/tx/runs/${second.id}` })).json().status, 'queued');
    fs.writeFileSync(gate, '');
    const [a, b] = await Promise.all([runner().wait(first.id), runner().wait(second.id)]);
    assert.equal(a.status, 'succeeded', a.error ?? '');
    assert.equal(b.status, 'succeeded', b.error ?? '');
    // the queued run started only after the first finished
    assert.ok(b.started_at! >= a.finished_at!);
  } finally {
    delete process.env.BASIN_TEST_GATE;
  }
});
