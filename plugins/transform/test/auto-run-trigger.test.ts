// Which syncs start the post-sync auto run: everything but schedule-triggered syncs (a `sync`
// schedule runs dbt itself; a `sync_only` schedule must not cause a run). No dbt is started here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import type { AutoRunCoalescer } from '../src/index.js';
import { bootTx, manualTimer, txProject, writeRawOrders } from './fixtures/project.js';

let app: BasinApp;
const timer = manualTimer();

before(async () => {
  const dir = txProject();
  app = await bootTx(dir, { txTimer: timer.timer });
  await writeRawOrders(app);
});
after(async () => {
  await app?.close();
});

const autoRun = () => app.container.resolve<AutoRunCoalescer>('txAutoRun');
const completed = (trigger: string, schedule: string | null = null) =>
  app.events.emit('sync_completed' as any, { source: 'shop', sync_id: `s_${trigger}`, rows: 1, tables: [], duration_seconds: 0, trigger, schedule } as any);

test('a schedule-triggered sync generates staging but does not request an auto run', async () => {
  await completed('schedule', 'nightly');
  assert.deepEqual(autoRun().waiting, []);
  const staging = (await app.http.inject({ method: 'GET', url: '/api/tx/staging' })).json();
  assert.match(JSON.stringify(staging), /stg_shop__orders/);
});

test('an API, watcher or upload sync requests the coalesced auto run', async () => {
  await completed('api');
  assert.deepEqual(autoRun().waiting, ['shop']);
});
