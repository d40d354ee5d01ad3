import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import WebSocket from 'ws';
import type { BasinApp } from '@basin/core';
import sources from '@basin/plugin-sources';
import notifications from '@basin/plugin-notifications';
import scheduler from '@basin/plugin-scheduler';
import authPlugin, { type AuthService } from '@basin/plugin-auth';
import realtime from '../src/index.js';
import type { WsHub } from '../src/hub.js';
import { bootScheduler } from '../../scheduler/test/helpers.js';

interface Msg {
  type: string;
  timestamp: string;
  [k: string]: unknown;
}

/** A real ws client collecting JSON messages. */
/** the client's TCP socket, which ws keeps in an undeclared field */
const tcpSocket = (ws: WebSocket): { pause(): void } => Reflect.get(ws, '_socket');

async function connect(base: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; messages: Msg[]; next: (type: string) => Promise<Msg> }> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers });
  const messages: Msg[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(String(d)));
    for (const w of waiters.splice(0)) w();
  });
  await once(ws, 'open');
  const next = async (type: string) => {
    for (;;) {
      const m = messages.find((x) => x.type === type);
      if (m) return m;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { ws, messages, next };
}

/** The HTTP status a refused upgrade answered with. */
async function refusedStatus(base: string, headers: Record<string, string> = {}): Promise<number> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers });
  ws.on('error', () => {}); // terminating a refused handshake reports an error; the status is what matters
  const [, res] = (await once(ws, 'unexpected-response')) as [unknown, { statusCode: number }];
  ws.terminate();
  return res.statusCode;
}

async function listen(app: BasinApp): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}

test('a ws client sees sync_started then sync_completed with rows for a triggered schedule', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: nightly
    type: sync_only
    cron: daily
    sources: [orders]
`);
  t.after(() => b.app.close());
  const base = await listen(b.app);
  const c = await connect(base);
  const res = await fetch(`${base}/api/schedules/nightly/trigger`, { method: 'POST' });
  assert.equal(res.status, 202);
  const started = await c.next('sync_started');
  assert.equal(started.source, 'orders');
  assert.equal(started.timestamp, '2026-03-02T05:00:00.000Z');
  b.sync.finish('orders', { rows: 42 });
  const done = await c.next('sync_completed');
  assert.equal(done.rows, 42);
  assert.equal(done.source, 'orders');
  assert.deepEqual(c.messages.map((m) => m.type), ['sync_started', 'sync_completed']);
  // events outside SPEC "WebSocket events" are not forwarded
  await b.app.events.emit('schedule_job_finished', {} as never);
  await b.app.events.emit('tx_run_started', { model: 'stg_orders', run_id: 'r1' } as never);
  assert.equal((await c.next('tx_run_started')).model, 'stg_orders');
  assert.ok(!c.messages.some((m) => m.type === 'schedule_job_finished'));
  // a plain GET is told to upgrade
  const plain = await fetch(`${base}/ws`);
  assert.equal(plain.status, 426);
  assert.equal((await plain.json()).error.code, 'upgrade_required');
  c.ws.close();
});

test('with auth on: anonymous and bad-key upgrades get 401; a viewer session cookie and an API key connect; logout closes the socket', async (t) => {
  const b = await bootScheduler('schedules: []\n', { auth: true, plugins: [authPlugin, sources, scheduler, notifications, realtime] });
  t.after(() => b.app.close());
  const auth = b.app.container.resolve<AuthService>('auth');
  const viewer = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, 'viewer@example.com', 'viewer', 'correct horse battery staple');
  const base = await listen(b.app);

  assert.equal(await refusedStatus(base), 401);
  assert.equal(await refusedStatus(base, { authorization: 'Bearer basin_ak_notarealkeynotarealkeynotarealke' }), 401);
  assert.equal(await refusedStatus(base, { cookie: 'basin_session=forged' }), 401);
  assert.equal((await fetch(`${base}/ws`)).status, 401);

  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify({ email: 'viewer@example.com', password: 'correct horse battery staple' }) });
  assert.equal(login.status, 200);
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('basin_session='))!.split(';')[0]!;

  // a session cookie from a foreign origin is refused (cross-site WebSocket hijacking)
  assert.equal(await refusedStatus(base, { cookie, origin: 'https://evil.example' }), 403);

  const bySession = await connect(base, { cookie, origin: base });
  const { key } = auth.createKey(viewer, 'ws test', null, null);
  const byKey = await connect(base, { authorization: `Bearer ${key}` });
  await b.app.events.emit('sync_failed', { source: 'orders', sync_id: 's1', error: 'HTTP 500', trigger: 'api' } as never);
  assert.equal((await bySession.next('sync_failed')).error, 'HTTP 500');
  assert.equal((await byKey.next('sync_failed')).source, 'orders');

  const closed = once(bySession.ws, 'close');
  const out = await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: { cookie, 'x-requested-with': 'XMLHttpRequest' } });
  assert.ok(out.status < 300, `logout answered ${out.status}`);
  const [code] = (await closed) as [number];
  assert.equal(code, 4001);
  assert.equal(byKey.ws.readyState, WebSocket.OPEN, 'the API-key socket is not affected');
  byKey.ws.close();
});

test('clients only receive events their role may see', async (t) => {
  const b = await bootScheduler('schedules: []\n');
  t.after(() => b.app.close());
  const hub = b.app.container.resolve<WsHub>('wsHub');
  const sent: Record<string, string[]> = { txOnly: [], all: [] };
  const fakeWs = (name: string) => ({ OPEN: 1, readyState: 1, bufferedAmount: 0, send: (d: string) => sent[name]!.push(JSON.parse(d).type), on() {}, close() {}, terminate() {}, ping() {} });
  hub.add(fakeWs('txOnly') as never, { kind: 'api_key', userId: 'u1', email: 'a', role: 'viewer', permissions: new Set(['tx.view']) });
  hub.add(fakeWs('all') as never, { kind: 'api_key', userId: 'u2', email: 'b', role: 'viewer', permissions: new Set(['tx.view', 'source.view']) });
  await b.app.events.emit('sync_started', { source: 'orders', sync_id: 's', trigger: 'api' } as never);
  await b.app.events.emit('csv_uploaded', { source: 'orders', file: 'a.csv' } as never);
  await b.app.events.emit('tx_run_completed', { model: 'm', run_id: 'r', status: 'success' } as never);
  assert.deepEqual(sent.txOnly, ['tx_run_completed']);
  assert.deepEqual(sent.all, ['sync_started', 'csv_uploaded', 'tx_run_completed']);
  hub.close();
});

test('schema_drift_detected reaches clients with governance.view only', async (t) => {
  const b = await bootScheduler('schedules: []\n');
  t.after(() => b.app.close());
  const hub = b.app.container.resolve<WsHub>('wsHub');
  const sent: Record<string, Array<Record<string, unknown>>> = { gov: [], other: [] };
  const fakeWs = (name: string) => ({ OPEN: 1, readyState: 1, bufferedAmount: 0, send: (d: string) => sent[name]!.push(JSON.parse(d)), on() {}, close() {}, terminate() {}, ping() {} });
  hub.add(fakeWs('gov') as never, { kind: 'api_key', userId: 'u1', email: 'a', role: 'viewer', permissions: new Set(['governance.view']) });
  hub.add(fakeWs('other') as never, { kind: 'api_key', userId: 'u2', email: 'b', role: 'viewer', permissions: new Set(['source.view', 'tx.view']) });
  const changes = [{ change_type: 'column_removed', column: 'amount', old_type: 'DOUBLE', new_type: null }];
  await b.app.events.emit('schema_drift_detected', { source: 'orders', table: 'orders', changes, sync_id: 's1' } as never);
  assert.deepEqual(sent.other, []);
  assert.equal(sent.gov.length, 1);
  assert.deepEqual({ ...sent.gov[0], timestamp: undefined }, { type: 'schema_drift_detected', timestamp: undefined, source: 'orders', table: 'orders', changes, sync_id: 's1' });
  hub.close();
});

test('a slow client is dropped instead of buffering without bound; a client that stops answering pings is cut off', async (t) => {
  const b = await bootScheduler('schedules: []\n');
  t.after(() => b.app.close());
  const hub = b.app.container.resolve<WsHub>('wsHub');
  hub.options.maxBufferedBytes = 256 * 1024;
  const base = await listen(b.app);
  const slow = await connect(base);
  const fast = await connect(base);
  // the slow client stops reading: its TCP window fills and the server's queue grows
  tcpSocket(slow.ws).pause();
  const big = 'x'.repeat(200 * 1024);
  for (let i = 0; i < 200 && hub.stats.droppedSlow === 0; i++) {
    await b.app.events.emit('freshness_update', { source: 'orders', pad: big } as never);
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(hub.stats.droppedSlow, 1);
  assert.equal(hub.size, 1, 'only the reading client is left');
  // the reading client got every event
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(fast.messages.length > 0);

  // keep-alive: a responsive client survives ping rounds, a silent one is terminated
  hub.pingRound();
  await new Promise((r) => setTimeout(r, 100)); // the real client answers the ping with a pong
  hub.pingRound();
  assert.equal(hub.size, 1);
  tcpSocket(fast.ws).pause();
  hub.pingRound();
  await new Promise((r) => setTimeout(r, 100));
  hub.pingRound();
  assert.equal(hub.size, 0);
  assert.equal(hub.stats.timedOut, 1);
  slow.ws.terminate();
  fast.ws.terminate();
});
