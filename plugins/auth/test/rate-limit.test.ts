import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addUser, bootAuth, XHR, type AuthTestApp } from './helpers.js';

let n = 0;
// a new e-mail each time, so lockout (per IP and e-mail) never answers before the rate limit
const tryLogin = (t: AuthTestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.http.inject({ method: 'POST', url: '/api/auth/login', headers: { ...XHR, ...headers }, payload: { email: `x${n++}@example.com`, password: 'short' }, remoteAddress });

describe('rate limits', () => {
  let t: AuthTestApp;
  before(async () => {
    // a small general limit so the test stays quick; the login limit keeps its default 10/60 s
    t = await bootAuth({}, '  rate_limit:\n    api:\n      requests: 5\n      window_seconds: 60\n    trusted_proxies: ["10.9.9.9"]\n');
    await addUser(t.auth, 'a@example.com', 'admin');
  });
  after(() => t.app.close());

  test('login: 10 requests per 60 s per client, then 429 rate_limited with Retry-After; the window resets', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await tryLogin(t, '10.0.0.1')).statusCode, 401);
    const r = await tryLogin(t, '10.0.0.1');
    assert.equal(r.statusCode, 429);
    assert.equal(r.json().error.code, 'rate_limited');
    assert.equal(r.headers['retry-after'], '60');
    assert.equal((await tryLogin(t, '10.0.0.2')).statusCode, 401, 'another client has its own budget');
    t.clock.advance(45_000);
    assert.equal((await tryLogin(t, '10.0.0.1')).headers['retry-after'], '15');
    t.clock.advance(15_000);
    assert.equal((await tryLogin(t, '10.0.0.1')).statusCode, 401);
  });

  test('other /api/* routes share the general limit', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await t.app.http.inject({ url: '/api/auth/me', remoteAddress: '10.0.1.1' })).statusCode, 401);
    const r = await t.app.http.inject({ url: '/api/auth/setup', remoteAddress: '10.0.1.1' });
    assert.equal(r.statusCode, 429);
    assert.ok(Number(r.headers['retry-after']) > 0);
  });

  test('requests from 127.0.0.1 and ::1 are exempt', async () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      for (let i = 0; i < 12; i++) assert.equal((await t.app.http.inject({ url: '/api/auth/me', remoteAddress: ip })).statusCode, 401, `${ip} #${i}`);
    }
  });

  test('X-Forwarded-For is honoured only from a trusted proxy', async () => {
    // untrusted peer: its X-Forwarded-For is ignored, even one claiming loopback
    for (let i = 0; i < 5; i++) await t.app.http.inject({ url: '/api/auth/me', remoteAddress: '10.0.2.1', headers: { 'x-forwarded-for': `172.16.0.${i}` } });
    const spoof = await t.app.http.inject({ url: '/api/auth/me', remoteAddress: '10.0.2.1', headers: { 'x-forwarded-for': '127.0.0.1' } });
    assert.equal(spoof.statusCode, 429);
    // trusted proxy: each forwarded client has its own budget, and the proxy itself is not limited as one client
    for (let i = 0; i < 5; i++) {
      const r = await t.app.http.inject({ url: '/api/auth/me', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': `172.16.1.${i}` } });
      assert.equal(r.statusCode, 401);
    }
    for (let i = 0; i < 5; i++) await t.app.http.inject({ url: '/api/auth/me', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': '172.16.2.1' } });
    const over = await t.app.http.inject({ url: '/api/auth/me', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': '203.0.113.5, 172.16.2.1' } });
    assert.equal(over.statusCode, 429, 'the right-most untrusted hop is the client');
    const local = await t.app.http.inject({ url: '/api/auth/me', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': '127.0.0.1' } });
    assert.equal(local.statusCode, 401, 'a loopback client behind the trusted proxy is exempt');
  });

  test('lockout keys on the forwarded client behind a trusted proxy', async () => {
    const viaProxy = (xff: string) =>
      t.app.http.inject({ method: 'POST', url: '/api/auth/login', headers: { ...XHR, 'x-forwarded-for': xff }, payload: { email: 'a@example.com', password: 'wrong password' }, remoteAddress: '10.9.9.9' });
    for (let i = 0; i < 5; i++) assert.equal((await viaProxy('198.51.100.1')).statusCode, 401);
    assert.equal((await viaProxy('198.51.100.1')).json().error.code, 'login_locked');
    assert.equal((await viaProxy('198.51.100.2')).statusCode, 401);
  });
});
