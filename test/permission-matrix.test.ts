import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CORE_PERMISSIONS, type BasinApp, type Role, type RouteRecord } from '@basin/core';
import { bootApp, makeProject } from '@basin/test';
import type { AuthService } from '@basin/plugin-auth';

/**
 * Walks the whole route table of an app with every workspace plugin: anonymous callers get 401 on every
 * non-public route; each role, by session and by API key, gets 403 exactly where the role lacks the
 * route's permission. Derived from the route table, so routes added later are covered automatically.
 *
 * Writes carry a body of an unknown content type: the guard answers before body parsing, so a denied
 * call is 401/403 and an allowed one stops at 415 without side effects (no sync, no dbt run, no logout).
 */
const ROLES: Role[] = ['admin', 'editor', 'viewer'];
const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PROBE = { 'content-type': 'application/x-basin-matrix-probe' };

let app: BasinApp;
const callers: Record<string, Record<string, string>> = {};

before(async () => {
  app = await bootApp(makeProject());
  const auth = app.container.resolve<AuthService>('auth');
  for (const role of ROLES) {
    const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${role}@example.com`, role, 'matrix test password');
    const res = await app.http.inject({ method: 'POST', url: '/api/auth/login', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { email: u.email, password: 'matrix test password' } });
    assert.equal(res.statusCode, 200, res.body);
    const c = res.cookies.find((x) => x.name === 'basin_session')!;
    callers[`${role} session`] = { cookie: `basin_session=${c.value}`, 'x-requested-with': 'XMLHttpRequest' };
    callers[`${role} api key`] = { authorization: `Bearer ${auth.keys.create(u.id, 'matrix', null).key}` };
  }
});
after(() => app?.close());

const fill = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, 'matrix-probe').replace(/\*/g, 'matrix-probe');

async function call(r: RouteRecord, headers: Record<string, string>) {
  const write = WRITE.has(r.method);
  return app.http.inject({ method: r.method as 'GET', url: fill(r.url), headers: write ? { ...headers, ...PROBE } : headers, ...(write ? { payload: 'probe' } : {}) });
}

const routes = () => app.routeTable.routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');

test('the SPEC matrix of core permissions: admin 29, editor 19, viewer 8', () => {
  const core = new Set(CORE_PERMISSIONS.map((p) => p.name));
  const count = (role: Role) => app.permissions.forRole(role).filter((p) => core.has(p)).length;
  assert.deepEqual({ admin: count('admin'), editor: count('editor'), viewer: count('viewer') }, { admin: 29, editor: 19, viewer: 8 });
  assert.equal(app.permissions.roleHas('viewer', 'source.view'), true);
  assert.equal(app.permissions.roleHas('editor', 'users.manage'), false);
});

test('every route declares a known access level', () => {
  assert.ok(routes().length > 20, `only ${routes().length} routes registered`);
  for (const r of routes()) assert.ok(r.permission === 'public' || r.permission === 'auth' || app.permissions.has(r.permission), `${r.method} ${r.url}: ${r.permission}`);
});

test('anonymous callers get 401 on every non-public route', async () => {
  const wrong: string[] = [];
  for (const r of routes()) {
    if (r.permission === 'public') continue;
    const res = await call(r, {});
    if (res.statusCode !== 401) wrong.push(`${r.method} ${r.url} (${r.owner}): ${res.statusCode}`);
  }
  assert.deepEqual(wrong, []);
});

test('each role, by session and by API key, gets 403 exactly where the matrix denies', async () => {
  const wrong: string[] = [];
  for (const r of routes()) {
    for (const [who, headers] of Object.entries(callers)) {
      const role = who.split(' ')[0] as Role;
      const denied = r.permission !== 'public' && r.permission !== 'auth' && !app.permissions.roleHas(role, r.permission);
      const res = await call(r, headers);
      if (denied) {
        if (res.statusCode !== 403 || res.json().error?.details?.permission !== r.permission) wrong.push(`${who} ${r.method} ${r.url} [${r.permission}]: expected 403, got ${res.statusCode}`);
      } else if (res.statusCode === 401 || res.statusCode === 403) {
        wrong.push(`${who} ${r.method} ${r.url} [${r.permission}]: expected access, got ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});
