import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { addUser, bootAuth, login, loginCookie, XHR, type AuthTestApp } from './helpers.js';

describe('user management and API keys', () => {
  let t: AuthTestApp;
  let admin: string;
  const post = (url: string, cookie: string, payload?: object) => t.app.http.inject({ method: 'POST', url, headers: { cookie, ...XHR }, ...(payload ? { payload } : {}) });
  before(async () => {
    t = await bootAuth();
    await addUser(t.auth, 'admin@example.com', 'admin');
    admin = await loginCookie(t.app, 'admin@example.com');
  });
  after(() => t.app.close());

  test('invite: link issued, accepted once, reuse refused, expires after 72 hours, reinvite issues a new one', async () => {
    const r = await post('/api/admin/users', admin, { email: 'New@Example.com', role: 'editor', display_name: 'New' });
    assert.equal(r.statusCode, 201, r.body);
    const { user, invite_path } = r.json();
    assert.equal(user.status, 'invited');
    assert.equal(user.email, 'new@example.com');
    const token = invite_path.replace('/invite/', '');
    assert.equal((await post('/api/admin/users', admin, { email: 'new@example.com', role: 'viewer' })).statusCode, 409);
    const noHeader = await t.app.http.inject({ method: 'POST', url: '/api/auth/accept-invite', payload: { token, password: 'a fine new password' } });
    assert.equal(noHeader.json().error.code, 'csrf_rejected');
    const ok = await t.app.http.inject({ method: 'POST', url: '/api/auth/accept-invite', headers: XHR, payload: { token, password: 'a fine new password', display_name: 'Newt' } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().user.status, 'active');
    assert.equal(ok.json().user.display_name, 'Newt');
    const again = await t.app.http.inject({ method: 'POST', url: '/api/auth/accept-invite', headers: XHR, payload: { token, password: 'another fine password' } });
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().error.code, 'invalid_token');
    assert.equal((await login(t.app, 'new@example.com', 'a fine new password')).statusCode, 200);

    const r2 = await post('/api/admin/users', admin, { email: 'late@example.com', role: 'viewer' });
    const late = r2.json();
    t.clock.advance(72 * 3600_000);
    admin = await loginCookie(t.app, 'admin@example.com'); // the old session went idle meanwhile
    const expired = await t.app.http.inject({ method: 'POST', url: '/api/auth/accept-invite', headers: XHR, payload: { token: late.invite_path.slice(8), password: 'a fine new password' } });
    assert.equal(expired.json().error.code, 'invalid_token');
    const re = await post(`/api/admin/users/${late.user.id}/reinvite`, admin);
    assert.equal(re.statusCode, 200);
    const fresh = await t.app.http.inject({ method: 'POST', url: '/api/auth/accept-invite', headers: XHR, payload: { token: re.json().invite_path.slice(8), password: 'a fine new password' } });
    assert.equal(fresh.statusCode, 200, fresh.body);
    assert.equal(fs.readFileSync(`${t.dir}/.basin/auth.db`).includes(token), false, 'invite tokens are stored hashed');
    assert.equal((fs.statSync(`${t.dir}/.basin/auth.db`).mode & 0o777).toString(8), '600');
  });

  test('last-admin guard: no demoting, deactivating or deleting the last active admin', async () => {
    const me = t.auth.users.byEmail('admin@example.com')!;
    for (const [method, url, payload] of [
      ['PUT', `/api/admin/users/${me.id}/role`, { role: 'viewer' }],
      ['POST', `/api/admin/users/${me.id}/deactivate`, undefined],
      ['DELETE', `/api/admin/users/${me.id}`, undefined],
    ] as const) {
      const r = await t.app.http.inject({ method, url, headers: { cookie: admin, ...XHR }, ...(payload ? { payload } : {}) });
      assert.equal(r.statusCode, 409, `${method} ${url}`);
      assert.equal(r.json().error.code, 'last_admin');
    }
    const other = await addUser(t.auth, 'admin2@example.com', 'admin');
    const ok = await t.app.http.inject({ method: 'PUT', url: `/api/admin/users/${other.id}/role`, headers: { cookie: admin, ...XHR }, payload: { role: 'editor' } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().role, 'editor');
  });

  test('API keys: format, shown once, hashed at rest, act with the creator role, expire and revoke', async () => {
    await addUser(t.auth, 'keys@example.com', 'editor');
    const cookie = await loginCookie(t.app, 'keys@example.com');
    const expires = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const c = await post('/api/auth/api-keys', cookie, { name: 'ci', expires_at: expires });
    assert.equal(c.statusCode, 201, c.body);
    const { key, prefix, id } = c.json();
    assert.match(key, /^basin_ak_[A-Za-z0-9_-]{32}$/);
    assert.equal(prefix, key.slice(0, 12));
    assert.equal(fs.readFileSync(`${t.dir}/.basin/auth.db`).includes(key), false);
    const list = await t.app.http.inject({ url: '/api/auth/api-keys', headers: { cookie } });
    assert.equal(JSON.stringify(list.json()).includes(key), false);
    assert.equal(list.json()[0].prefix, prefix);
    const bearer = { authorization: `Bearer ${key}` };
    const meRes = await t.app.http.inject({ url: '/api/auth/me', headers: bearer });
    assert.equal(meRes.json().role, 'editor');
    assert.equal(meRes.json().auth_method, 'api_key');
    assert.equal((await t.app.http.inject({ url: '/api/admin/users', headers: bearer })).statusCode, 403);
    // the key follows the creator's current role
    const u = t.auth.users.byEmail('keys@example.com')!;
    await t.app.http.inject({ method: 'PUT', url: `/api/admin/users/${u.id}/role`, headers: { cookie: admin, ...XHR }, payload: { role: 'admin' } });
    assert.equal((await t.app.http.inject({ url: '/api/admin/users', headers: bearer })).statusCode, 200);
    await t.app.http.inject({ method: 'PUT', url: `/api/admin/users/${u.id}/role`, headers: { cookie: admin, ...XHR }, payload: { role: 'editor' } });
    t.clock.advance(3600_000);
    assert.equal((await t.app.http.inject({ url: '/api/auth/me', headers: bearer })).statusCode, 401, 'expired');
    const k2 = (await post('/api/auth/api-keys', cookie, { name: 'no expiry' })).json();
    const b2 = { authorization: `Bearer ${k2.key}` };
    assert.equal((await t.app.http.inject({ url: '/api/auth/sessions', headers: b2 })).statusCode, 200);
    const del = await t.app.http.inject({ method: 'DELETE', url: `/api/auth/api-keys/${k2.id}`, headers: { cookie, ...XHR } });
    assert.equal(del.statusCode, 200);
    assert.equal((await t.app.http.inject({ url: '/api/auth/sessions', headers: b2 })).statusCode, 401, 'revoked');
    assert.equal((await t.app.http.inject({ url: '/api/auth/sessions', headers: { authorization: 'Bearer basin_ak_' + 'x'.repeat(32) } })).statusCode, 401);
    void id;
  });

  test('deactivation ends sessions and keys at once; reactivation restores login; delete is permanent', async () => {
    const u = await addUser(t.auth, 'temp@example.com', 'viewer');
    const cookie = await loginCookie(t.app, 'temp@example.com');
    const key = (await post('/api/auth/api-keys', cookie, { name: 'k' })).json().key;
    const d = await post(`/api/admin/users/${u.id}/deactivate`, admin);
    assert.equal(d.statusCode, 200);
    assert.equal(d.json().status, 'inactive');
    assert.equal((await t.app.http.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode, 401);
    assert.equal((await t.app.http.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${key}` } })).statusCode, 401);
    assert.equal((await login(t.app, 'temp@example.com')).json().error.code, 'invalid_credentials');
    assert.equal((await post(`/api/admin/users/${u.id}/reactivate`, admin)).statusCode, 200);
    assert.equal((await login(t.app, 'temp@example.com')).statusCode, 200);
    assert.equal((await t.app.http.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${key}` } })).statusCode, 200, 'keys of a reactivated user work again');
    const rs = await post(`/api/admin/users/${u.id}/revoke-sessions`, admin);
    assert.equal(rs.json().sessions_ended, 1);
    const del = await t.app.http.inject({ method: 'DELETE', url: `/api/admin/users/${u.id}`, headers: { cookie: admin, ...XHR } });
    assert.equal(del.statusCode, 200);
    assert.equal(t.auth.users.byId(u.id), undefined);
    assert.equal((await t.app.http.inject({ method: 'POST', url: `/api/admin/users/${u.id}/deactivate`, headers: { cookie: admin, ...XHR } })).statusCode, 404);
  });

  test('reset-password link sets a new password and ends old sessions', async () => {
    const u = await addUser(t.auth, 'forgot@example.com', 'viewer');
    const old = await loginCookie(t.app, 'forgot@example.com');
    const r = await post(`/api/admin/users/${u.id}/reset-password`, admin);
    assert.equal(r.statusCode, 200);
    const token = r.json().reset_path.slice(8);
    const a = await t.app.http.inject({ method: 'POST', url: '/api/auth/accept-invite', headers: XHR, payload: { token, password: 'brand new secret words' } });
    assert.equal(a.statusCode, 200, a.body);
    assert.equal((await t.app.http.inject({ url: '/api/auth/me', headers: { cookie: old } })).statusCode, 401);
    assert.equal((await login(t.app, 'forgot@example.com', 'brand new secret words')).statusCode, 200);
  });

  test('the audit log is append-only', () => {
    assert.ok((t.auth.db.prepare('SELECT count(*) AS n FROM auth_audit').get() as { n: number }).n > 10);
    assert.throws(() => t.auth.db.prepare('DELETE FROM auth_audit').run(), /append-only/);
    assert.throws(() => t.auth.db.prepare("UPDATE auth_audit SET outcome = 'x'").run(), /append-only/);
  });
});
