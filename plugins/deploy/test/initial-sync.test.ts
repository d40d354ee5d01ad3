// The initial sync of a fresh server: the one-time deploy token (single use, expiring, only for start and
// status), per-source progress, skip the current source, cancel the whole run, admin-only controls, and
// the progress events on /ws.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { ManualClock, type BasinApp } from '@basin/core';
import authPlugin, { type AuthService } from '@basin/plugin-auth';
import realtimePlugin from '@basin/plugin-realtime';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin from '@basin/plugin-sync';
import { bootApp, makeProject } from '@basin/test';
import deployPlugin, { DeployTokens, InitialSync, InitialSyncStateStore, initialSyncRef } from '../src/index.js';
import { coreServices } from '@basin/core';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'slow-source');
const src = (name: string, block = false) => `  - name: ${name}\n    type: slow_test\n    slow_test:\n      rows: 3\n      block: ${block}\n`;

describe('initial sync', () => {
  let app: BasinApp;
  let url = '';
  let adminKey = '';
  let editorKey = '';
  let token = '';
  const clock = new ManualClock('2026-03-01T12:00:00Z');

  before(async () => {
    const dir = makeProject({ '.basin/sources.yml': `version: "1.0"\nsources:\n${src('alpha')}${src('blocker', true)}${src('gamma')}` });
    fs.appendFileSync(path.join(dir, '.basin/project.yml'), `plugins:\n  - ${fixture}\n`);
    app = await bootApp(dir, { clock, plugins: [authPlugin, sourcesPlugin, syncPlugin, realtimePlugin, deployPlugin] });
    url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
    const auth = app.container.resolve<AuthService>('auth');
    const admin = await auth.addUserWithPassword({ id: null, email: 't', ip: null }, 'admin@example.com', 'admin', 'a long admin password');
    const editor = await auth.addUserWithPassword({ id: null, email: 't', ip: null }, 'editor@example.com', 'editor', 'a long editor password');
    adminKey = auth.keys.create(admin.id, 'test', null).key;
    editorKey = auth.keys.create(editor.id, 'test', null).key;
    token = new DeployTokens(app.resolve(coreServices.stateDb), () => clock.now()).issue(24).token;
  });
  after(() => app?.close());

  const call = async (method: string, p: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${url}${p}`, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const asToken = (t = token) => ({ 'x-basin-deploy-token': t });
  const asKey = (k: string) => ({ authorization: `Bearer ${k}` });
  async function until(p: (s: any) => boolean, headers: Record<string, string> = asKey(adminKey)) {
    for (let i = 0; i < 200; i++) {
      const s = (await call('GET', '/api/initial-sync/status', headers)).body;
      if (p(s)) return s;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('timed out waiting for the initial sync');
  }

  test('the deploy token starts it once; progress per source; skip moves on to the next source; events reach /ws', async () => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: asKey(adminKey) });
    const events: any[] = [];
    ws.on('message', (m) => events.push(JSON.parse(String(m))));
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));

    const idle = await call('GET', '/api/initial-sync/status', asToken());
    assert.equal(idle.status, 200);
    assert.equal(idle.body.state, 'idle');
    const started = await call('POST', '/api/initial-sync/start', asToken());
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.body.state, 'running');
    assert.deepEqual(started.body.sources.map((s: any) => s.name), ['alpha', 'blocker', 'gamma']);
    const again = await call('POST', '/api/initial-sync/start', asToken());
    assert.equal(again.status, 401);
    assert.equal(again.body.error.code, 'deploy_token_used');

    const mid = await until((s) => s.current === 'blocker', asToken());
    assert.equal(mid.sources[0].state, 'succeeded');
    assert.equal(mid.sources[0].rows, 3);
    assert.equal(mid.sources[1].state, 'syncing');
    assert.equal(mid.sources[2].state, 'pending');
    const steer = await call('POST', '/api/initial-sync/skip-source', asToken());
    assert.equal(steer.status, 400, 'the token cannot steer the run');
    assert.equal(steer.body.error.code, 'deploy_token_not_accepted');
    assert.equal((await call('POST', '/api/initial-sync/skip-source', asKey(editorKey))).status, 403);
    const skip = await call('POST', '/api/initial-sync/skip-source', asKey(adminKey));
    assert.equal(skip.status, 200);
    assert.deepEqual(skip.body, { skipped: 'blocker' });
    const done = await until((s) => s.state !== 'running');
    assert.equal(done.state, 'completed');
    assert.deepEqual(done.sources.map((s: any) => [s.name, s.state]), [['alpha', 'succeeded'], ['blocker', 'skipped'], ['gamma', 'succeeded']]);
    assert.equal(done.done, 3);
    assert.equal(done.started_by, 'deploy token');
    const rows = await app.warehouse.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM raw_gamma.items');
    assert.equal(rows[0]!.n, 3);

    await new Promise((r) => setTimeout(r, 100));
    ws.close();
    const types = events.map((e) => e.type);
    assert.ok(types.includes('initial_sync_started'));
    assert.ok(types.includes('initial_sync_completed'));
    const progress = events.filter((e) => e.type === 'initial_sync_progress').map((e) => `${e.source}:${e.state}`);
    assert.deepEqual(progress, ['alpha:syncing', 'alpha:succeeded', 'blocker:syncing', 'blocker:skipped', 'gamma:syncing', 'gamma:succeeded']);
  });

  test('an admin cancels the whole run; the rest is cancelled', async () => {
    const started = await call('POST', '/api/initial-sync/start', asKey(adminKey), { sources: ['blocker', 'gamma'] });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal((await call('POST', '/api/initial-sync/start', asKey(adminKey))).status, 409);
    await until((s) => s.current === 'blocker');
    assert.equal((await call('POST', '/api/initial-sync/cancel', asKey(editorKey))).status, 403);
    assert.equal((await call('POST', '/api/initial-sync/cancel', asKey(adminKey))).status, 200);
    await app.resolve(initialSyncRef).idle();
    const s = (await call('GET', '/api/initial-sync/status', asKey(adminKey))).body;
    assert.equal(s.state, 'cancelled');
    assert.deepEqual(s.sources.map((x: any) => [x.name, x.state]), [['blocker', 'cancelled'], ['gamma', 'cancelled']]);
    assert.equal(s.started_by, 'admin@example.com');
    assert.equal((await call('POST', '/api/initial-sync/cancel', asKey(adminKey))).status, 409);
    assert.equal((await call('POST', '/api/initial-sync/skip-source', asKey(adminKey))).status, 409);
  });

  test('the last run survives a restart; one that was running shows as interrupted', async () => {
    const store = new InitialSyncStateStore(app.resolve(coreServices.stateDb));
    const after = new InitialSync(() => undefined, () => [], app.events, clock, store);
    assert.equal(after.get().state, 'cancelled');
    assert.deepEqual(after.get().sources.map((x) => x.name), ['blocker', 'gamma']);
    const s = after.get();
    store.save({ ...s, state: 'running', current: 'blocker', sources: [{ ...s.sources[0]!, state: 'syncing' }, { ...s.sources[1]!, state: 'pending' }] });
    const restarted = new InitialSync(() => undefined, () => [], app.events, clock, store).get();
    assert.equal(restarted.state, 'interrupted');
    assert.deepEqual(restarted.sources.map((x) => [x.name, x.state]), [['blocker', 'failed'], ['gamma', 'cancelled']]);
    assert.match(restarted.sources[0]!.error!, /interrupted/);
  });

  test('bad, expired and misplaced tokens are refused; editors cannot start', async () => {
    assert.equal((await call('GET', '/api/initial-sync/status', asToken('basin_dt_not-the-token'))).body.error.code, 'deploy_token_invalid');
    assert.equal((await call('GET', '/api/initial-sync/status', asToken())).status, 200, 'a spent token still reads the status');
    assert.equal((await call('GET', '/api/sources', asToken())).status, 400);
    assert.equal((await call('POST', '/api/initial-sync/start', asKey(editorKey))).status, 403);
    assert.equal((await call('GET', '/api/initial-sync/status', {})).status, 401);
    assert.equal((await call('POST', '/api/initial-sync/start', asKey(adminKey), { sources: ['nope'] })).status, 400);
    clock.advance(24 * 3600_000 + 1);
    const expired = await call('GET', '/api/initial-sync/status', asToken());
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.code, 'deploy_token_expired');
  });
});
