import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { authenticator } from 'otplib';
import { addUser, bootAuth, login, loginCookie, sessionCookie, XHR, PASSWORD, type AuthTestApp } from './helpers.js';

describe('two-factor authentication', () => {
  let t: AuthTestApp;
  const code = (secret: string) => authenticator.clone({ epoch: t.clock.now().getTime() }).generate(secret);
  const post = (url: string, cookie: string, payload?: object) => t.app.http.inject({ method: 'POST', url, headers: { cookie, ...XHR }, ...(payload ? { payload } : {}) });
  let secret = '';
  let recovery: string[] = [];
  before(async () => {
    t = await bootAuth();
    await addUser(t.auth, 'tfa@example.com', 'editor');
  });
  after(() => t.app.close());

  test('setup needs the password, returns secret, otpauth URI and 8 recovery codes; verify-setup enables it', async () => {
    const cookie = await loginCookie(t.app, 'tfa@example.com');
    assert.equal((await post('/api/auth/2fa/setup', cookie, { password: 'wrong one!' })).json().error.code, 'invalid_password');
    const s = await post('/api/auth/2fa/setup', cookie, { password: PASSWORD });
    assert.equal(s.statusCode, 200, s.body);
    ({ secret, recovery_codes: recovery } = s.json());
    assert.match(s.json().otpauth_uri, /^otpauth:\/\/totp\/Basin:tfa%40example\.com\?secret=/);
    assert.equal(recovery.length, 8);
    assert.equal(new Set(recovery).size, 8);
    assert.equal((await post('/api/auth/2fa/verify-setup', cookie, { code: '000000' === code(secret) ? '111111' : '000000' })).statusCode, 400);
    const v = await post('/api/auth/2fa/verify-setup', cookie, { code: code(secret) });
    assert.equal(v.statusCode, 200, v.body);
    const raw = fs.readFileSync(`${t.dir}/.basin/auth.db`);
    assert.equal(raw.includes(secret), false, 'the TOTP secret is encrypted at rest');
    assert.equal(raw.includes(recovery[0]!), false, 'recovery codes are hashed');
  });

  test('login gives a partial session that can only verify, and expires after 5 minutes', async () => {
    const r = await login(t.app, 'tfa@example.com');
    assert.equal(r.json().two_factor_required, true);
    const partial = sessionCookie(r);
    assert.equal(r.cookies.find((c) => c.name === 'basin_session')!.maxAge, 300);
    const blocked = await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie: partial } });
    assert.equal(blocked.statusCode, 401);
    t.clock.advance(5 * 60_000);
    const late = await post('/api/auth/2fa/verify', partial, { code: code(secret) });
    assert.equal(late.statusCode, 401, 'the partial session timed out');
  });

  test('verify with TOTP upgrades to a new full session', async () => {
    const partial = sessionCookie(await login(t.app, 'tfa@example.com'));
    t.clock.advance(4 * 60_000);
    const v = await post('/api/auth/2fa/verify', partial, { code: code(secret) });
    assert.equal(v.statusCode, 200, v.body);
    const full = sessionCookie(v);
    assert.notEqual(full, partial);
    assert.equal((await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie: full } })).statusCode, 200);
    assert.equal((await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie: partial } })).statusCode, 401, 'the partial token is spent');
  });

  test('a recovery code works once', async () => {
    const p1 = sessionCookie(await login(t.app, 'tfa@example.com'));
    const ok = await post('/api/auth/2fa/verify', p1, { code: recovery[0]! });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().remaining_recovery_codes, 7);
    const p2 = sessionCookie(await login(t.app, 'tfa@example.com'));
    const again = await post('/api/auth/2fa/verify', p2, { code: recovery[0]! });
    assert.equal(again.statusCode, 401);
    assert.equal(again.json().error.code, 'invalid_code');
  });

  test('regenerate needs password and current code; disable needs the password', async () => {
    t.clock.advance(30_000); // the previous test used this step's code
    const p = sessionCookie(await login(t.app, 'tfa@example.com'));
    const used = code(secret);
    const full = sessionCookie(await post('/api/auth/2fa/verify', p, { code: used }));
    // the code just used cannot be replayed, not even by the same user within its 30 s window
    assert.equal((await post('/api/auth/2fa/regenerate-recovery', full, { password: PASSWORD, code: used })).statusCode, 400);
    const replay = await post('/api/auth/2fa/verify', sessionCookie(await login(t.app, 'tfa@example.com')), { code: used });
    assert.equal(replay.statusCode, 401);
    t.clock.advance(30_000);
    assert.equal((await post('/api/auth/2fa/regenerate-recovery', full, { password: PASSWORD, code: '12345' })).statusCode, 400);
    const g = await post('/api/auth/2fa/regenerate-recovery', full, { password: PASSWORD, code: code(secret) });
    assert.equal(g.statusCode, 200);
    const fresh = g.json().recovery_codes as string[];
    const p2 = sessionCookie(await login(t.app, 'tfa@example.com'));
    assert.equal((await post('/api/auth/2fa/verify', p2, { code: recovery[1]! })).statusCode, 401, 'old codes are void');
    assert.equal((await post('/api/auth/2fa/verify', p2, { code: fresh[0]! })).statusCode, 200);
    assert.equal((await post('/api/auth/2fa/disable', full, { password: 'nope nope' })).statusCode, 400);
    assert.equal((await post('/api/auth/2fa/disable', full, { password: PASSWORD })).statusCode, 200);
    assert.equal((await login(t.app, 'tfa@example.com')).json().two_factor_required, false);
  });
});

describe('require_2fa', () => {
  test('users without 2FA reach only the setup routes until done', async () => {
    const t = await bootAuth({}, '  require_2fa: true\n');
    try {
      await addUser(t.auth, 'must@example.com', 'editor');
      const r = await login(t.app, 'must@example.com');
      assert.equal(r.json().two_factor_setup_required, true);
      const cookie = sessionCookie(r);
      const blocked = await t.app.http.inject({ url: '/api/auth/api-keys', headers: { cookie } });
      assert.equal(blocked.statusCode, 403);
      assert.equal(blocked.json().error.code, '2fa_setup_required');
      const me = await t.app.http.inject({ url: '/api/auth/me', headers: { cookie } });
      assert.equal(me.json().pending, 'setup_2fa');
      const s = await t.app.http.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: { cookie, ...XHR }, payload: { password: PASSWORD } });
      assert.equal(s.statusCode, 200);
      const c = authenticator.clone({ epoch: t.clock.now().getTime() }).generate(s.json().secret);
      assert.equal((await t.app.http.inject({ method: 'POST', url: '/api/auth/2fa/verify-setup', headers: { cookie, ...XHR }, payload: { code: c } })).statusCode, 200);
      assert.equal((await t.app.http.inject({ url: '/api/auth/api-keys', headers: { cookie } })).statusCode, 200);
    } finally {
      await t.app.close();
    }
  });

  test('password rotation: an old password makes login answer that a change is required', async () => {
    const t = await bootAuth({}, '  password_max_age_days: 30\n');
    try {
      await addUser(t.auth, 'old@example.com', 'viewer');
      t.clock.advance(31 * 86_400_000);
      const r = await login(t.app, 'old@example.com');
      assert.equal(r.json().password_change_required, true);
      const cookie = sessionCookie(r);
      assert.equal((await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie } })).json().error.code, 'password_change_required');
      const ch = await t.app.http.inject({ method: 'POST', url: '/api/auth/change-password', headers: { cookie, ...XHR }, payload: { current_password: PASSWORD, new_password: 'rotated words here' } });
      assert.equal(ch.statusCode, 200, ch.body);
      assert.equal((await t.app.http.inject({ url: '/api/auth/sessions', headers: { cookie } })).statusCode, 200);
    } finally {
      await t.app.close();
    }
  });

  test('an admin resets a user\'s 2FA: their sessions end, login needs no code, the audit log names who', async () => {
    const t = await bootAuth();
    try {
      const admin = await addUser(t.auth, 'boss@example.com', 'admin');
      const user = await addUser(t.auth, 'lost@example.com', 'viewer');
      const cookie = await loginCookie(t.app, 'lost@example.com');
      const s = await t.app.http.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: { cookie, ...XHR }, payload: { password: PASSWORD } });
      const c = authenticator.clone({ epoch: t.clock.now().getTime() }).generate(s.json().secret);
      assert.equal((await t.app.http.inject({ method: 'POST', url: '/api/auth/2fa/verify-setup', headers: { cookie, ...XHR }, payload: { code: c } })).statusCode, 200);
      assert.equal((await login(t.app, 'lost@example.com')).json().two_factor_required, true);
      const bossCookie = await loginCookie(t.app, 'boss@example.com');
      const r = await t.app.http.inject({ method: 'POST', url: `/api/admin/users/${user.id}/reset-2fa`, headers: { cookie: bossCookie, ...XHR } });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.json().two_factor_enabled, false);
      assert.equal((await t.app.http.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode, 401, 'their sessions ended');
      const again = await login(t.app, 'lost@example.com');
      assert.equal(again.statusCode, 200, again.body);
      assert.notEqual(again.json().two_factor_required, true);
      const audit = t.auth.audit.list(20, 0, 'user.reset_2fa').items[0];
      assert.equal(audit?.target, 'lost@example.com');
      assert.equal(audit?.actor_email, admin.email);
      const own = await t.app.http.inject({ method: 'POST', url: `/api/admin/users/${admin.id}/reset-2fa`, headers: { cookie: sessionCookie(again), ...XHR } });
      assert.equal(own.statusCode, 403, 'a viewer may not');
    } finally {
      await t.app.close();
    }
  });
});
