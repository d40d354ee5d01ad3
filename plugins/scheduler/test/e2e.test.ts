import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import WebSocket from 'ws';
import { ManualClock } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import sources from '@basin/plugin-sources';
import sync from '@basin/plugin-sync';
import notifications from '@basin/plugin-notifications';
import realtime from '@basin/plugin-realtime';
import scheduler from '../src/index.js';
import type { Scheduler } from '../src/scheduler.js';
import { startReceiver } from '../../notifications/test/receiver.js';

test('end to end with the real sync engine: a triggered schedule loads a CSV, /ws reports it and the webhook gets rows_loaded', async (t) => {
  const rx = await startReceiver();
  const dir = makeProject({
    'data/in/a.csv': 'id,v\n1,x\n2,y\n3,z\n',
    '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: drop\n    type: local_files\n    local_files:\n      directory: data/in\n      file_pattern: "*.csv"\n',
    '.basin/schedules.yml': `schedules:\n  - name: load_drop\n    type: sync_only\n    cron: every_hour\n    sources: [drop]\nnotifications:\n  webhooks:\n    - { name: ops, url: "${rx.url}/hook" }\n`,
  });
  disableAuth(dir);
  const app = await bootApp(dir, { clock: new ManualClock('2026-03-02T05:00:00Z'), plugins: [sources, sync, scheduler, notifications, realtime] });
  t.after(async () => {
    await app.close();
    await rx.close();
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
  const seen: Array<Record<string, unknown>> = [];
  ws.on('message', (d) => seen.push(JSON.parse(String(d))));
  await once(ws, 'open');

  const res = await fetch(`${base}/api/schedules/load_drop/trigger`, { method: 'POST' });
  assert.equal(res.status, 202);
  const job = (await app.container.resolve<Scheduler>('scheduler').wait((await res.json()).id))!;
  assert.equal(job.status, 'succeeded', job.error ?? '');
  assert.equal(job.rows, 3);
  await rx.waitFor(1);
  for (let i = 0; i < 100 && !seen.some((m) => m.type === 'sync_completed'); i++) await new Promise((r) => setTimeout(r, 20));
  const types = seen.map((m) => m.type);
  assert.ok(types.indexOf('sync_started') < types.indexOf('sync_completed'), types.join(','));
  assert.equal(seen.find((m) => m.type === 'sync_completed')!.rows, 3);
  assert.equal(rx.received[0]!.body.event, 'sync_completed');
  assert.equal(rx.received[0]!.body.rows_loaded, 3);
  assert.equal(rx.received[0]!.body.schedule, 'load_drop');
  ws.close();
});
