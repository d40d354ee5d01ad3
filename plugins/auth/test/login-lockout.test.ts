import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addUser, bootAuth, login, loginCookie, XHR, type AuthTestApp } from './helpers.js';

describe('password login and lockout', () => {
  let t: AuthTestApp;
  let adminCookie: string;
  before(async () => {
    t = await bootAuth();
    await addUser(t.auth, 'admin@example.com', 'admin');
    await addUser(t.auth, 'viewer@example.com', 'viewer');
    const gone = await addUser(t.auth, 'gone@example.com', 'viewer');
    t.auth.users.update(gone.id, { status: 'inactive' });
    adminCookie = await loginCookie(t.app, 'admin@example.com');
  });
  after(() => t.app.close());

  test('wrong password, unknown e-mail and inactive account give one identical 401', async () => {
    const bodies = await Promise.all([
      login(t.app, 'viewer@example.com', 'wrong password here', '10.1.0.1'),
      login(t.app, 'nobody@example.com', 'wrong password here', '10.1.0.2'),
      login(t.app, 'gone@example.com', 'correct horse battery staple', '10.1.0.3'),
    ]);
    for (const r of bodies) {
      assert.equal(r.statusCode, 401);
      assert.equal(r.cookies.length, 0);
    }
    assert.deepEqual(new Set(bodies.map((b) => b.body)).size, 1);
    assert.equal(bodies[0]!.json().error.code, 'invalid_credentials');
  });

  test('5 failures lock the (IP, e-mail) pair for 15 minutes with Retry-After; other IPs are unaffected; the lock runs out', async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < 5; i++) assert.equal((await login(t.app, 'viewer@example.com', 'bad password!', ip)).statusCode, 401);
    const locked = await login(t.app, 'viewer@example.com', 'correct horse battery staple', ip);
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.json().error.code, 'login_locked');
    assert.equal(locked.headers['retry-after'], '900');
    assert.equal(locked.json().error.details.retry_after_seconds, 900);
    assert.equal((await login(t.app, 'viewer@example.com', undefined, '10.2.0.2')).statusCode, 200, 'another IP still logs in');
    t.clock.advance(14 * 60_000);
    const still = await login(t.app, 'viewer@example.com', undefined, ip);
    assert.equal(still.statusCode, 429);
    assert.equal(still.headers['retry-after'], '60');
    t.clock.advance(60_000);
    assert.equal((await login(t.app, 'viewer@example.com', undefined, ip)).statusCode, 200);
  });

  test('an unknown e-mail locks exactly like a real one', async () => {
    const real: string[] = [];
    const ghost: string[] = [];
    for (let i = 0; i < 6; i++) {
      const a = await login(t.app, 'viewer@example.com', 'bad password!', '10.3.0.1');
      const b = await login(t.app, 'ghost@example.com', 'bad password!', '10.3.0.2');
      real.push(`${a.statusCode} ${a.headers['retry-after'] ?? ''} ${a.body}`);
      ghost.push(`${b.statusCode} ${b.headers['retry-after'] ?? ''} ${b.body}`);
    }
    assert.deepEqual(ghost, real);
    assert.match(real[5]!, /^429 900 .*login_locked/);
  });

  test('admin unlock endpoint clears the lock', async () => {
    const ip = '10.4.0.1';
    for (let i = 0; i < 5; i++) await login(t.app, 'viewer@example.com', 'bad password!', ip);
    assert.equal((await login(t.app, 'viewer@example.com', undefined, ip)).statusCode, 429);
    const viewer = t.auth.users.byEmail('viewer@example.com')!;
    const list = await t.app.http.inject({ url: '/api/admin/users', headers: { cookie: adminCookie } });
    assert.equal(list.json().find((u: { email: string }) => u.email === 'viewer@example.com').locked, true);
    const r = await t.app.http.inject({ method: 'POST', url: `/api/admin/users/${viewer.id}/unlock`, headers: { cookie: adminCookie, ...XHR } });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal((await login(t.app, 'viewer@example.com', undefined, ip)).statusCode, 200);
    const audit = await t.app.http.inject({ url: '/api/admin/audit?action=user.unlock', headers: { cookie: adminCookie } });
    assert.equal(audit.json().total, 1);
  });

  test('a successful login resets the failure counter', async () => {
    const ip = '10.5.0.1';
    for (let i = 0; i < 4; i++) await login(t.app, 'viewer@example.com', 'bad password!', ip);
    assert.equal((await login(t.app, 'viewer@example.com', undefined, ip)).statusCode, 200);
    for (let i = 0; i < 4; i++) assert.equal((await login(t.app, 'viewer@example.com', 'bad password!', ip)).statusCode, 401);
  });

  test('the login endpoint requires the CSRF header and sets HttpOnly, SameSite=Lax cookies (Secure only over HTTPS)', async () => {
    const noHeader = await t.app.http.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'viewer@example.com', password: 'correct horse battery staple' } });
    assert.equal(noHeader.statusCode, 403);
    assert.equal(noHeader.json().error.code, 'csrf_rejected');
    const ok = await login(t.app, 'viewer@example.com');
    const c = ok.cookies.find((x) => x.name === 'basin_session')!;
    assert.equal(c.httpOnly, true);
    assert.equal(c.sameSite, 'Lax');
    assert.equal(c.path, '/');
    assert.ok(!c.secure, 'plain http: no Secure flag');
  });
});
