import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { addUser, bootAuth, login, loginCookie, sessionCookie, XHR, type AuthTestApp } from './helpers.js';
import authPlugin, { type AuthService } from '../src/index.js';
import { bootApp, makeProject, disableAuth } from '@basin/test';
import { ManualClock } from '@basin/core';

const me = (t: AuthTestApp, cookie: string) => t.app.http.inject({ url: '/api/auth/me', headers: { cookie } });

describe('sessions', () => {
  let t: AuthTestApp;
  before(async () => {
    t = await bootAuth({}, '  idle_timeout_minutes: 30\n  session_max_days: 2\n');
    await addUser(t.auth, 'a@example.com', 'admin');
    await addUser(t.auth, 'e@example.com', 'editor');
  });
  after(() => t.app.close());

  test('idle timeout: activity keeps a session alive, 30 idle minutes end it', async () => {
    const cookie = await loginCookie(t.app, 'e@example.com');
    for (let i = 0; i < 4; i++) {
      t.clock.advance(20 * 60_000);
      assert.equal((await me(t, cookie)).statusCode, 200, `after ${(i + 1) * 20} active minutes`);
    }
    t.clock.advance(30 * 60_000);
    assert.equal((await me(t, cookie)).statusCode, 401);
  });

  test('absolute expiry ends an active session after session_max_days', async () => {
    const cookie = await loginCookie(t.app, 'e@example.com');
    // 115 requests 25 minutes apart (never idle for 30): 2875 minutes, just under 2 days
    for (let i = 0; i < 115; i++) {
      t.clock.advance(25 * 60_000);
      assert.equal((await me(t, cookie)).statusCode, 200, `request ${i}`);
    }
    t.clock.advance(25 * 60_000);
    assert.equal((await me(t, cookie)).statusCode, 401);
  });

  test('sessions are stored hashed; list and revoke own sessions', async () => {
    const c1 = await loginCookie(t.app, 'e@example.com');
    const c2 = await loginCookie(t.app, 'e@example.com');
    const token = c1.split('=')[1]!;
    const dump = fs.readFileSync(`${t.dir}/.basin/auth.db`);
    assert.equal(dump.includes(token), false);
    assert.equal(t.auth.db.prepare('SELECT count(*) AS n FROM auth_sessions WHERE id_hash = ?').get(token) !== undefined, true);
    const list = await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie: c1 } });
    const items = list.json() as Array<{ id: string; current: boolean }>;
    assert.ok(items.length >= 2);
    const other = items.find((s) => !s.current)!;
    const other2 = (await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie: c2 } })).json().find((s: { current: boolean }) => s.current);
    const del = await t.app.http.inject({ method: 'DELETE', url: `/api/auth/sessions/${other2.id}`, headers: { cookie: c1, ...XHR } });
    assert.equal(del.statusCode, 200);
    assert.equal((await me(t, c2)).statusCode, 401);
    assert.equal((await me(t, c1)).statusCode, 200);
    void other;
  });

  test('CSRF: cookie-authenticated writes need X-Requested-With or a same Origin; Bearer is exempt', async () => {
    const cookie = await loginCookie(t.app, 'e@example.com');
    const body = { name: 'k' };
    const bare = await t.app.http.inject({ method: 'POST', url: '/api/auth/api-keys', headers: { cookie }, payload: body });
    assert.equal(bare.statusCode, 403);
    assert.equal(bare.json().error.code, 'csrf_rejected');
    const evil = await t.app.http.inject({ method: 'POST', url: '/api/auth/api-keys', headers: { cookie, origin: 'http://evil.example', host: 'basin.local:8800' }, payload: body });
    assert.equal(evil.statusCode, 403);
    const same = await t.app.http.inject({ method: 'POST', url: '/api/auth/api-keys', headers: { cookie, origin: 'http://basin.local:8800', host: 'basin.local:8800' }, payload: body });
    assert.equal(same.statusCode, 201, same.body);
    const key = same.json().key as string;
    const bearer = await t.app.http.inject({ method: 'POST', url: '/api/auth/api-keys', headers: { authorization: `Bearer ${key}` }, payload: { name: 'k2' } });
    assert.equal(bearer.statusCode, 201);
  });

  test('logout ends the session and emits auth_logout {user_id, session_id}', async () => {
    const cookie = await loginCookie(t.app, 'e@example.com');
    const sid = (await me(t, cookie)).json().id;
    const seen: unknown[] = [];
    const off = t.app.events.on('auth_logout', (p) => void seen.push(p));
    const sess = (await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie } })).json().find((s: { current: boolean }) => s.current);
    const r = await t.app.http.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, ...XHR } });
    off();
    assert.equal(r.statusCode, 200);
    assert.equal(r.cookies.find((c) => c.name === 'basin_session')?.value, '');
    assert.deepEqual(seen, [{ user_id: sid, session_id: sess.id }]);
    assert.equal((await me(t, cookie)).statusCode, 401);
  });

  test('Secure cookie when served over HTTPS through a trusted proxy', async () => {
    const t2 = await bootAuth({}, '  rate_limit:\n    trusted_proxies: ["127.0.0.1"]\n');
    try {
      await addUser(t2.auth, 's@example.com', 'viewer');
      const r = await t2.app.http.inject({ method: 'POST', url: '/api/auth/login', headers: { ...XHR, 'x-forwarded-proto': 'https' }, payload: { email: 's@example.com', password: 'correct horse battery staple' } });
      const c = r.cookies.find((x) => x.name === 'basin_session')!;
      assert.equal(c.secure, true);
      assert.equal(c.httpOnly, true);
      assert.equal(c.sameSite, 'Lax');
      sessionCookie(r);
    } finally {
      await t2.app.close();
    }
  });

  test('change-password ends other sessions and keeps this one', async () => {
    await addUser(t.auth, 'cp@example.com', 'viewer');
    const c1 = await loginCookie(t.app, 'cp@example.com');
    const c2 = await loginCookie(t.app, 'cp@example.com');
    const weak = await t.app.http.inject({ method: 'POST', url: '/api/auth/change-password', headers: { cookie: c1, ...XHR }, payload: { current_password: 'correct horse battery staple', new_password: 'password123' } });
    assert.equal(weak.statusCode, 400);
    assert.equal(weak.json().error.code, 'weak_password');
    const short = await t.app.http.inject({ method: 'POST', url: '/api/auth/change-password', headers: { cookie: c1, ...XHR }, payload: { current_password: 'correct horse battery staple', new_password: 'Ab1!x' } });
    assert.equal(short.json().error.code, 'weak_password');
    const ok = await t.app.http.inject({ method: 'POST', url: '/api/auth/change-password', headers: { cookie: c1, ...XHR }, payload: { current_password: 'correct horse battery staple', new_password: 'a much longer passphrase ' + 'x'.repeat(100) } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((await me(t, c1)).statusCode, 200);
    assert.equal((await me(t, c2)).statusCode, 401);
    assert.equal((await login(t.app, 'cp@example.com', 'a much longer passphrase ' + 'x'.repeat(100))).statusCode, 200, 'passwords longer than 72 bytes work');
    assert.equal((await login(t.app, 'cp@example.com', 'a much longer passphrase ' + 'x'.repeat(99) + 'y')).statusCode, 401, 'and every byte counts');
  });
});

describe('settings', () => {
  test('cloud deployment uses 60 min idle / 30 days unless set', async () => {
    const dir = makeProject();
    const f = `${dir}/.basin/project.yml`;
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('  port: 8800\n', '  port: 8800\n  deployment: cloud\n'));
    const app = await bootApp(dir, { plugins: [authPlugin], clock: new ManualClock() });
    try {
      const s = app.container.resolve<AuthService>('auth').settings();
      assert.equal(s.idle_timeout_minutes, 60);
      assert.equal(s.session_max_days, 30);
    } finally {
      await app.close();
    }
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('auth:\n  enabled: true\n', 'auth:\n  enabled: true\n  session_max_days: 90\n'));
    const app2 = await bootApp(dir, { plugins: [authPlugin] });
    try {
      const s = app2.container.resolve<AuthService>('auth').settings();
      assert.equal(s.idle_timeout_minutes, 60);
      assert.equal(s.session_max_days, 90);
    } finally {
      await app2.close();
    }
  });

  test('auth disabled: /api/auth/me answers {"auth_enabled": false} and every route acts as admin', async () => {
    const dir = makeProject();
    disableAuth(dir);
    const app = await bootApp(dir, { plugins: [authPlugin] });
    try {
      const r = await app.http.inject({ url: '/api/auth/me' });
      assert.deepEqual(r.json(), { auth_enabled: false });
      assert.equal((await app.http.inject({ url: '/api/admin/users' })).statusCode, 200);
      await assert.rejects(app.listen({ host: '0.0.0.0', port: 0 }), /loopback/);
    } finally {
      await app.close();
    }
  });
});
