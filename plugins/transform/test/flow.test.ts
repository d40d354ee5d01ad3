// End to end with the real dbt and real DuckDB: sync → staging generated → auto run (coalesced)
// builds marts → API shows them → a second process reads the serving copy while dbt holds the
// warehouse → cancel/kill leaves the warehouse usable.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Warehouse, type BasinApp, type EventName } from '@basin/core';
import type { AutoRunCoalescer, DbtRunner, TxRunRecord } from '../src/index.js';
import { bootTx, manualTimer, txProject, writeRawOrders } from './fixtures/project.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let app: BasinApp;
let dir: string;
const timer = manualTimer();
const flagged = new Set<string>();
const events: Array<{ type: string; payload: any }> = [];

before(async () => {
  dir = txProject();
  app = await bootTx(dir, { txTimer: timer.timer, governance: { attentionSources: async () => new Set(flagged) } });
  for (const type of ['tx_run_started', 'tx_run_completed'] as const) app.events.on(type, (payload) => void events.push({ type, payload }));
});
after(async () => {
  await app?.close();
});

const runner = () => app.container.resolve<DbtRunner>('txRunner');
const autoRun = () => app.container.resolve<AutoRunCoalescer>('txAutoRun');
const syncCompleted = (source: string) => app.events.emit('sync_completed' as any, { source, sync_id: `s_${source}`, rows: 5, tables: [], duration_seconds: 1, trigger: 'api' } as any);

function waitForEvent(type: EventName, model: string): Promise<any> {
  return new Promise((resolve) => {
    const off = app.events.on(type, (p: any) => {
      if (p.model === model) {
        off();
        resolve(p);
      }
    });
  });
}

test('a sync generates staging, the coalesced auto run builds the marts and the API shows them', async () => {
  await writeRawOrders(app, 6);
  await syncCompleted('shop');
  await app.events.idle();

  const stg = path.join(dir, 'tx/models/staging/shop/stg_shop__orders.sql');
  assert.match(fs.readFileSync(stg, 'utf8'), /^-- basin:generated checksum=[0-9a-f]{16}\n/);
  assert.match(fs.readFileSync(stg, 'utf8'), /source\('shop', 'orders'\)/);
  assert.match(fs.readFileSync(path.join(dir, 'tx/models/staging/shop/_shop__sources.yml'), 'utf8'), /schema: "\{\{ env_var\('BASIN_SCHEMA_PREFIX', ''\) \}\}raw_shop"/);

  // one timer for the coalescing window; nothing ran yet
  assert.equal(timer.scheduled.length, 1);
  assert.equal(timer.scheduled[0]!.ms, 10_000);
  assert.equal((await app.http.inject({ url: '/api/tx/runs' })).json().total, 0);

  const rec = (await autoRun().flush())!;
  assert.equal(rec.status, 'succeeded', rec.error ?? '');
  assert.equal(rec.trigger, 'sync');
  assert.equal(rec.docs_generated, true);
  const mart = rec.models.find((m) => m.name === 'orders_by_status')!;
  assert.equal(mart.status, 'success');
  assert.equal(mart.rows_affected, 2);

  // the mart is in the warehouse (reopened after dbt) and in the serving copy
  assert.deepEqual(await app.warehouse.query('SELECT status, orders::INTEGER AS orders FROM main.orders_by_status ORDER BY status'), [
    { status: 'open', orders: 3 },
    { status: 'paid', orders: 3 },
  ]);
  const serving = await Warehouse.openReadOnly(app.warehouse.servingPath);
  const c = await serving.connect();
  assert.equal((await c.runAndReadAll('SELECT count(*)::INTEGER AS n FROM main.orders_by_status')).getRowObjectsJson()[0]!.n, 2);
  // dbt's staging view names the "warehouse" catalog; it must still bind in the serving file
  assert.equal((await c.runAndReadAll('SELECT count(*)::INTEGER AS n FROM main.stg_shop__orders')).getRowObjectsJson()[0]!.n, 6);
  c.closeSync();
  serving.closeSync();

  // per-model events from dbt's structured log
  assert.ok(events.some((e) => e.type === 'tx_run_started' && e.payload.model === 'orders_by_status' && e.payload.run_id === rec.id));
  assert.ok(events.some((e) => e.type === 'tx_run_completed' && e.payload.model === 'stg_shop__orders' && e.payload.status === 'success'));

  const models = (await app.http.inject({ url: '/api/tx/models' })).json();
  const m = models.find((x: any) => x.name === 'orders_by_status');
  assert.equal(m.layer, 'marts');
  assert.equal(m.materialization, 'table');
  assert.equal(m.status, 'success');
  assert.equal(m.rows_affected, 2);
  assert.deepEqual(m.depends_on, ['model.test_project.stg_shop__orders']);
  const s = models.find((x: any) => x.name === 'stg_shop__orders');
  assert.equal(s.layer, 'staging');
  assert.equal(s.materialization, 'view');
  assert.ok(models.some((x: any) => x.resource_type === 'source' && x.name === 'shop.orders'));

  const runs = (await app.http.inject({ url: '/api/tx/runs?limit=5' })).json();
  assert.equal(runs.total, 1);
  assert.equal(runs.items[0].id, rec.id);
  assert.equal((await app.http.inject({ url: `/api/tx/runs/${rec.id}` })).json().status, 'succeeded');
  assert.equal((await app.http.inject({ url: '/api/tx/runs/tx_nope' })).statusCode, 404);

  // docs generated after the successful run, served with traversal refused
  const idx = await app.http.inject({ url: '/tx-docs/' });
  assert.equal(idx.statusCode, 200);
  assert.match(idx.headers['content-type'] as string, /text\/html/);
  assert.equal((await app.http.inject({ url: '/manifest.json' })).json().metadata.project_name, 'test_project');
  assert.equal((await app.http.inject({ url: '/catalog.json' })).statusCode, 200);
  assert.equal((await app.http.inject({ url: '/tx-docs/..%2F..%2F.basin%2Fstate.db' })).statusCode, 404);
  assert.equal((await app.http.inject({ url: '/tx-docs/run_results.json' })).statusCode, 404);

  const status = (await app.http.inject({ url: '/api/status' })).json();
  const dbt = status.companions.find((x: any) => x.name === 'dbt');
  assert.equal(dbt.state, 'ok');
  assert.match(dbt.version, /dbt-core 1\.12\.\d+, dbt-duckdb 1\.11\.\d+, duckdb 1\.5\.6/);
  assert.ok(status.warehouse.serving_copy.published_at);
});

test('a second process reads the serving copy while dbt holds the warehouse', async () => {
  const gate = path.join(dir, 'gate-open');
  process.env.BASIN_TEST_GATE = gate;
  try {
    const started = waitForEvent('tx_run_started', 'gate');
    const run = runner().run({ select: 'gate', trigger: 'test' });
    await started; // dbt is running and holds warehouse.db (the server closed its handle)
    assert.equal(app.warehouse.isOpen, false);
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'fixtures/read-serving.ts'), app.warehouse.servingPath, 'main.orders_by_status', '8'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    await new Promise((r) => child.on('close', r));
    // the gate is still closed: every read above happened while dbt was running
    assert.equal(runner().running?.selector, 'gate');
    const result = JSON.parse(out);
    assert.deepEqual(result.errors, []);
    assert.equal(result.reads, 8);
    assert.equal(result.rows, 2);
    fs.writeFileSync(gate, '');
    const rec = await run;
    assert.equal(rec.status, 'succeeded', rec.error ?? '');
    assert.equal(app.warehouse.isOpen, true);
  } finally {
    delete process.env.BASIN_TEST_GATE;
  }
});

test('cancelling a running dbt kills it and leaves the warehouse readable and writable', async () => {
  const gate = path.join(dir, 'gate-never');
  process.env.BASIN_TEST_GATE = gate;
  let rec: TxRunRecord;
  try {
    const started = waitForEvent('tx_run_started', 'gate');
    const queued = runner().start({ select: 'gate', trigger: 'test' });
    await started;
    assert.equal(runner().cancel(queued.id), true);
    rec = await runner().wait(queued.id);
  } finally {
    delete process.env.BASIN_TEST_GATE;
  }
  assert.equal(rec.status, 'cancelled');
  assert.equal(app.warehouse.isOpen, true);
  assert.deepEqual(await app.warehouse.query('SELECT count(*)::INTEGER AS n FROM main.orders_by_status'), [{ n: 2 }]);
  await app.warehouse.write((c) => c.run('CREATE TABLE main.after_kill AS SELECT 1 AS x'));
  assert.deepEqual(await app.warehouse.query('SELECT x FROM main.after_kill'), [{ x: 1 }]);
});

test('three syncs inside the window make one run; a flagged source is excluded by selector', async () => {
  const before = (await app.http.inject({ url: '/api/tx/runs' })).json().total;
  timer.scheduled.length = 0;
  flagged.add('crm');
  await syncCompleted('shop');
  await syncCompleted('crm');
  await syncCompleted('shop');
  await app.events.idle();
  assert.equal(timer.scheduled.length, 1, 'one coalescing timer for three syncs');
  assert.deepEqual(autoRun().waiting, ['crm', 'shop']);
  const rec = (await autoRun().flush())!;
  assert.equal(rec.status, 'succeeded', rec.error ?? '');
  assert.deepEqual(rec.excluded_sources, ['crm']);
  assert.ok(rec.notes.some((n) => n.includes('crm, shop')));
  assert.equal((await app.http.inject({ url: '/api/tx/runs' })).json().total, before + 1);
  assert.equal(await autoRun().flush(), null, 'nothing left pending');
});
