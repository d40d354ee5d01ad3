// Notebooks end to end with the real marimo: templates, the lock state table, the proxy (HTTP and
// WebSocket) that adds marimo's token itself, a cell that counts a table's rows, expiry, and a sync while
// a notebook holds the serving copy open.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ManualClock, type BasinApp } from '@basin/core';
import type { AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';
import type { NotebookService } from '../src/index.js';
import { runNotebook as runWith } from './run-notebook.js';
import { callApi } from './api-call.js';

const sources = 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n';
let app: BasinApp;
let url: string;
let dir: string;
const clock = new ManualClock('2026-03-01T12:00:00Z');
const keys: Record<string, string> = {};

before(async () => {
  dir = makeProject({ '.basin/sources.yml': sources, 'data/shop/orders.csv': 'id,status\n1,paid\n2,open\n3,paid\n' });
  app = await bootApp(dir, { clock });
  url = `${(await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '')}/`;
  const auth = app.container.resolve<AuthService>('auth');
  for (const [who, role] of [['ann', 'editor'], ['bob', 'editor'], ['vic', 'viewer']] as const) {
    const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${who}@example.com`, role, 'notebook test password');
    keys[who] = auth.keys.create(u.id, 'test', null).key;
  }
  const sync = await api('ann', 'POST', '/api/sources/shop/sync', {});
  assert.equal(sync.status, 202, JSON.stringify(sync.body));
  for (let i = 0; i < 600 && !fs.existsSync(app.warehouse.servingPath); i++) await new Promise((r) => setTimeout(r, 100));
});
after(() => app?.close());

const api = (who: string, method: string, p: string, body?: unknown) => callApi(url, keys[who]!, method, p, body);

const runNotebook = (who: string, name: string) => runWith(url, keys[who]!, name);

const service = () => app.container.resolve<NotebookService>('notebooks');

test('create from a template; names, templates and duplicates are checked', async () => {
  const created = await api('ann', 'POST', '/api/notebooks', { name: 'orders', template: 'explore' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.file, 'notebooks/orders.py');
  assert.equal(created.body.lock, null);
  assert.equal((await api('ann', 'POST', '/api/notebooks', { name: '../etc/passwd' })).status, 422);
  assert.equal((await api('ann', 'POST', '/api/notebooks', { name: 'x', template: 'nope' })).status, 422);
  assert.equal((await api('ann', 'POST', '/api/notebooks', { name: 'orders' })).status, 409);
  assert.equal((await api('vic', 'POST', '/api/notebooks', { name: 'mine' })).status, 403);
  const list = await api('vic', 'GET', '/api/notebooks');
  assert.deepEqual(list.body.map((n: { name: string }) => n.name), ['orders']);
});

test('lock starts the server; the proxy serves only the holder, adds the token, and a cell counts a table through it', async () => {
  assert.equal((await api('ann', 'GET', '/notebooks/orders/')).status, 409, 'not locked yet');
  const locked = await api('ann', 'POST', '/api/notebooks/orders/lock');
  assert.equal(locked.status, 200, JSON.stringify(locked.body));
  assert.equal(locked.body.lock.user_email, 'ann@example.com');
  assert.equal(locked.body.running, true);

  const other = await api('bob', 'POST', '/api/notebooks/orders/lock');
  assert.equal(other.status, 409);
  assert.equal(other.body.error.details.locked_by, 'ann@example.com');
  assert.match(other.body.error.message, /ann@example\.com/);
  assert.equal((await api('bob', 'GET', '/notebooks/orders/')).status, 409, 'only the holder gets through');

  const token = service()['d'].servers.get('orders')!.token;
  const page = await api('ann', 'GET', '/notebooks/orders/');
  assert.ok(!page.text.includes(token), "marimo's token never reaches the browser");

  const values = await runNotebook('ann', 'orders');
  assert.equal(values.row_count, '3', JSON.stringify(values));

  // a sync while the notebook holds the serving copy open succeeds and republishes it
  fs.writeFileSync(path.join(dir, 'data/shop/more.csv'), 'id,status\n4,open\n');
  const sync = await api('ann', 'POST', '/api/sources/shop/sync', {});
  assert.equal(sync.status, 202);
  let status = '';
  for (let i = 0; i < 600 && status !== 'succeeded' && status !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    status = (await api('ann', 'GET', `/api/sync/status/${sync.body.id ?? sync.body.sync_id}`)).body.status;
  }
  assert.equal(status, 'succeeded');
});

test('heartbeat keeps the lock; force release, copy, expiry', async () => {
  const before = (await api('ann', 'GET', '/api/notebooks')).body[0].lock.expires_at;
  clock.advance(60_000);
  const hb = await api('ann', 'POST', '/api/notebooks/orders/heartbeat');
  assert.equal(hb.status, 200);
  assert.ok(hb.body.lock.expires_at > before);
  assert.equal((await api('bob', 'POST', '/api/notebooks/orders/heartbeat')).status, 409);

  const copy = await api('bob', 'POST', '/api/notebooks/orders/copy', {});
  assert.equal(copy.status, 201);
  assert.equal(copy.body.name, 'orders-copy');

  assert.equal((await api('vic', 'DELETE', '/api/notebooks/orders/lock')).status, 403);
  const forced = await api('bob', 'DELETE', '/api/notebooks/orders/lock');
  assert.equal(forced.status, 200);
  assert.equal(forced.body.lock, null);
  assert.equal(forced.body.running, false);
  assert.equal((await api('ann', 'GET', '/notebooks/orders/')).status, 409);

  // a lock whose heartbeats stop expires and its server stops
  assert.equal((await api('bob', 'POST', '/api/notebooks/orders-copy/lock')).status, 200);
  clock.advance(11 * 60_000);
  assert.deepEqual(await service().expire(), ['orders-copy']);
  const after = (await api('ann', 'GET', '/api/notebooks')).body.find((n: { name: string }) => n.name === 'orders-copy');
  assert.equal(after.lock, null);
  assert.equal(after.running, false);
  assert.equal((await api('ann', 'POST', '/api/notebooks/orders-copy/lock')).status, 200, 'free again');
  assert.equal((await api('ann', 'POST', '/api/notebooks/orders-copy/release')).status, 200);
});

test('the quality template profiles the first table without errors', async () => {
  assert.equal((await api('ann', 'POST', '/api/notebooks', { name: 'checks', template: 'quality' })).status, 201);
  assert.equal((await api('ann', 'POST', '/api/notebooks/checks/lock')).status, 200);
  const values = await runNotebook('ann', 'checks');
  assert.match(values.tables ?? '', /raw_shop\.shop/);
  assert.equal((await api('ann', 'POST', '/api/notebooks/checks/release')).status, 200);
});

test('a notebook that does not parse is reported with marimo\'s message and stays unlocked', async () => {
  fs.writeFileSync(path.join(dir, 'notebooks/broken.py'), 'import marimo\napp = marimo.App()\n@app.cell\ndef _(:\n    x = 1\n');
  const r = await api('ann', 'POST', '/api/notebooks/broken/lock');
  assert.equal(r.status, 422);
  assert.equal(r.body.error.code, 'notebook_invalid');
  assert.match(r.body.error.message, /unparsable/);
  assert.equal((await api('ann', 'GET', '/api/notebooks')).body.find((n: { name: string }) => n.name === 'broken').lock, null);
  assert.equal((await api('ann', 'DELETE', '/api/notebooks/broken')).status, 204);
});

test('a server nobody has open stops after idle_minutes even while heartbeats go on; at most max_servers run at once', async () => {
  for (const n of ['idle1', 'idle2', 'idle3', 'idle4']) assert.equal((await api('ann', 'POST', '/api/notebooks', { name: n })).status, 201);
  assert.equal((await api('ann', 'POST', '/api/notebooks/idle1/lock')).status, 200);
  // heartbeats keep the lock, but nobody opens the notebook: after 30 minutes its server stops
  for (let i = 0; i < 3; i++) {
    clock.advance(9 * 60_000);
    assert.equal((await api('ann', 'POST', '/api/notebooks/idle1/heartbeat')).status, 200);
    assert.deepEqual(await service().expire(), []);
  }
  clock.advance(4 * 60_000);
  assert.deepEqual(await service().expire(), ['idle1']);
  const idle = (await api('ann', 'GET', '/api/notebooks')).body.find((n: { name: string }) => n.name === 'idle1');
  assert.equal(idle.running, false);
  assert.equal(idle.lock, null);

  // the cap (notebooks.max_servers, 3 by default)
  for (const n of ['idle1', 'idle2', 'idle3']) assert.equal((await api('ann', 'POST', `/api/notebooks/${n}/lock`)).status, 200);
  const busy = await api('bob', 'POST', '/api/notebooks/idle4/lock');
  assert.equal(busy.status, 503);
  assert.equal(busy.body.error.code, 'notebook_servers_busy');
  assert.equal((await api('ann', 'GET', '/api/notebooks')).body.find((n: { name: string }) => n.name === 'idle4').lock, null, 'no server, no lock');
  for (const n of ['idle1', 'idle2', 'idle3']) assert.equal((await api('ann', 'POST', `/api/notebooks/${n}/release`)).status, 200);
});
