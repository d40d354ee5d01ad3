// Dashboards end to end with the real Superset: supervised start, single sign-on by the proxy's trusted
// headers with role mapping, dashboard permissions at the proxy, the warehouse registered read-only on
// the serving copy, a restart after a crash, and logout ending the dashboard session.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import type { AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';
import type { SupersetSupervisor } from '../src/index.js';

const sources = 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n';
let app: BasinApp;
let url: string;
let dir: string;
let biPort: number;
const keys: Record<string, string> = {};
const PASSWORD = 'dashboard test password';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

before(async () => {
  biPort = await freePort();
  dir = makeProject({ '.basin/sources.yml': sources, 'data/shop/orders.csv': 'id,status\n1,paid\n2,open\n3,paid\n' });
  const f = path.join(dir, '.basin/project.yml');
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('  port: 8800\n', `  port: 8800\n  bi_port: ${biPort}\n`));
  app = await bootApp(dir);
  url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  const auth = app.container.resolve<AuthService>('auth');
  for (const [who, role] of [['root', 'admin'], ['ed', 'editor'], ['vic', 'viewer']] as const) {
    const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${who}@example.com`, role, PASSWORD);
    keys[who] = auth.keys.create(u.id, 'test', null).key;
  }
  const sync = await call('root', 'POST', '/api/sources/shop/sync', {});
  assert.equal(sync.status, 202);
  for (let i = 0; i < 100 && !fs.existsSync(app.warehouse.servingPath); i++) await new Promise((r) => setTimeout(r, 100));
});
after(() => app?.close());

const jar: Record<string, string> = {};
async function call(who: string, method: string, p: string, body?: unknown, extra: Record<string, string> = {}) {
  const res = await fetch(`${url}${p}`, {
    method,
    redirect: 'manual',
    headers: {
      authorization: `Bearer ${keys[who]}`,
      ...(jar[who] ? { cookie: jar[who] } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...extra,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = res.headers.getSetCookie().find((c) => c.startsWith('bi.SESSION='));
  if (set) jar[who] = set.split(';')[0]!;
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* HTML */
  }
  return { status: res.status, body: json, text, headers: res.headers };
}
const supervisor = () => app.container.resolve<SupersetSupervisor>('biSupervisor');

test('before Superset runs, /bi answers 503 with the state; then it starts and registers the warehouse', { timeout: 600_000 }, async () => {
  const early = await call('root', 'GET', '/bi/');
  assert.equal(early.status, 503);
  assert.equal(early.body.error.code, 'bi_unavailable');
  await supervisor().start();
  assert.equal(supervisor().current.state, 'running');
  const health = await call('root', 'GET', '/api/health/platform');
  assert.equal(health.body.bi.state, 'running');
  assert.match(fs.readFileSync(path.join(dir, '.basin/bi.yml'), 'utf8'), /database:\n\s+id: \d+/);
});

test('each Basin user lands in Superset as the mapped role without a second login; forged headers do not count', async () => {
  const roles = async (who: string, extra: Record<string, string> = {}) => {
    const r = await call(who, 'GET', '/bi/api/v1/me/roles/', undefined, extra);
    assert.equal(r.status, 200, r.text.slice(0, 200));
    return { user: r.body.result.username, roles: Object.keys(r.body.result.roles) };
  };
  assert.deepEqual(await roles('root'), { user: 'root@example.com', roles: ['Admin'] });
  assert.deepEqual(await roles('ed'), { user: 'ed@example.com', roles: ['Alpha'] });
  assert.deepEqual(await roles('vic', { 'x-basin-user': 'root@example.com', 'x-basin-role': 'Admin', 'x-basin-proxy-secret': 'guess' }), { user: 'vic@example.com', roles: ['Gamma'] });
  // Superset itself refuses anyone who does not come through the proxy
  assert.equal((await fetch(`http://127.0.0.1:${biPort}/bi/api/v1/me/`)).status, 403);
  // dashboard permissions at the proxy: a viewer may not create a chart
  const denied = await call('vic', 'POST', '/bi/api/v1/chart/', { slice_name: 'x' });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.details.permission, 'dashboard.create');
});

test('SQL Lab reads the warehouse through the read-only serving copy; writes are refused', async () => {
  const csrf = (await call('root', 'GET', '/bi/api/v1/security/csrf_token/')).body.result;
  const db = JSON.parse(JSON.stringify((await call('root', 'GET', '/bi/api/v1/database/')).body)).result.find((d: { database_name: string }) => d.database_name === 'warehouse');
  assert.ok(db, 'the warehouse database is registered');
  const run = (sql: string) => call('root', 'POST', '/bi/api/v1/sqllab/execute/', { database_id: db.id, sql, runAsync: false, schema: 'main' }, { 'x-csrftoken': csrf, referer: `${url}/bi/sqllab/` });
  const ok = await run('select count(*) as n from raw_shop.shop');
  assert.equal(ok.status, 200, ok.text.slice(0, 300));
  assert.equal(ok.body.data[0].n, 3);
  const write = await run('create table raw_shop.evil(i int)');
  assert.notEqual(write.status, 200);
});

test('a revoked key loses dashboard access at once; Superset restarts after a crash; logout ends the dashboard session', { timeout: 120_000 }, async () => {
  const auth = app.container.resolve<AuthService>('auth');
  const temp = auth.keys.create(auth.users.byEmail('ed@example.com')!.id, 'temp', null);
  keys.temp = temp.key;
  assert.equal((await call('temp', 'GET', '/bi/api/v1/me/')).status, 200);
  auth.keys.revoke(temp.record.id);
  assert.equal((await call('temp', 'GET', '/bi/api/v1/me/')).status, 401);

  supervisor().crashForTest();
  for (let i = 0; i < 600 && supervisor().current.state === 'running'; i++) await new Promise((r) => setTimeout(r, 50));
  assert.notEqual(supervisor().current.state, 'running');
  for (let i = 0; i < 600 && supervisor().current.state !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(supervisor().current.state, 'running');
  assert.equal(supervisor().current.restarts, 1);
  assert.equal((await call('root', 'GET', '/bi/api/v1/me/')).status, 200);

  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify({ email: 'vic@example.com', password: PASSWORD }) });
  const session = login.headers.getSetCookie().find((c) => c.startsWith('basin_session='))!.split(';')[0]!;
  const out = await fetch(`${url}/api/auth/logout`, { method: 'POST', headers: { cookie: session, 'x-requested-with': 'XMLHttpRequest' } });
  assert.ok(out.status < 300);
  assert.ok(out.headers.getSetCookie().some((c) => /^bi\.SESSION=;.*Max-Age=0/.test(c)), out.headers.getSetCookie().join(' | '));
});
