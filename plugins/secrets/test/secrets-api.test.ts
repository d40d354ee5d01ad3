// /api/secrets on a real project: admin only, keys validated with the field named, values masked in
// every response and in the audit log, the file rewritten in place (comments and order kept), and the
// running config sees a change at once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import dotenv from 'dotenv';
import { bearer, bootSecrets, XHR, type SecretsTestApp } from './helpers.js';

const VALUE = 'sk_live_Very-Secret-Value-4242';
let t: SecretsTestApp;
let envFile: string;

before(async () => {
  t = await bootSecrets({ '.env': '# tokens for sources\nEXISTING=old-secret-value\n\n# keep me\nOTHER=2\n' });
  envFile = path.join(t.dir, '.env');
});
after(() => t?.app.close());

const req = (method: 'GET' | 'POST' | 'DELETE', url: string, key: string, payload?: unknown) =>
  t.app.http.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });

test('an admin adds and updates variables; the file keeps its comments and order; nothing echoes the value', async () => {
  const created = await req('POST', '/api/secrets', t.keys.admin, { key: 'STRIPE_KEY', value: VALUE });
  assert.equal(created.statusCode, 200, created.body);
  assert.equal(created.json().created, true);
  const updated = await req('POST', '/api/secrets', t.keys.admin, { key: 'EXISTING', value: 'new value with spaces # and hash' });
  assert.equal(updated.json().created, false);
  const text = fs.readFileSync(envFile, 'utf8');
  assert.equal(text, `# tokens for sources\nEXISTING='new value with spaces # and hash'\n\n# keep me\nOTHER=2\nSTRIPE_KEY=${VALUE}\n`);
  assert.equal(fs.statSync(envFile).mode & 0o777, 0o600);

  const list = await req('GET', '/api/secrets', t.keys.admin);
  assert.equal(list.statusCode, 200);
  const body = list.json();
  assert.deepEqual(body.env.map((e: { key: string }) => e.key), ['EXISTING', 'OTHER', 'STRIPE_KEY']);
  assert.ok(body.env.every((e: { value: string }) => e.value === '********'));
  for (const r of [created, updated, list]) {
    assert.ok(!r.body.includes(VALUE) && !r.body.includes('new value') && !r.body.includes('old-secret'), r.body);
  }
});

test('the running config sees a change at once, and a removal', async () => {
  await req('POST', '/api/secrets', t.keys.admin, { key: 'LIVE_TOKEN', value: 'first' });
  assert.equal(t.app.config.env('LIVE_TOKEN'), 'first');
  await req('POST', '/api/secrets', t.keys.admin, { key: 'LIVE_TOKEN', value: 'second "quoted"\nline' });
  assert.equal(t.app.config.env('LIVE_TOKEN'), 'second "quoted"\nline');
  const del = await req('DELETE', '/api/secrets/LIVE_TOKEN', t.keys.admin);
  assert.equal(del.statusCode, 200);
  assert.equal(t.app.config.env('LIVE_TOKEN'), undefined);
  assert.equal((await req('DELETE', '/api/secrets/LIVE_TOKEN', t.keys.admin)).statusCode, 404);
  assert.equal(dotenv.parse(fs.readFileSync(envFile)).LIVE_TOKEN, undefined);
});

test('editors and viewers get 403 naming config.manage; anonymous callers 401', async () => {
  for (const role of ['editor', 'viewer'] as const) {
    for (const [m, u, p] of [['GET', '/api/secrets'], ['POST', '/api/secrets', { key: 'X', value: VALUE }], ['DELETE', '/api/secrets/OTHER']] as const) {
      const r = await req(m, u, t.keys[role], p);
      assert.equal(r.statusCode, 403, `${role} ${m} ${u}`);
      assert.equal(r.json().error.details.permission, 'config.manage');
      assert.ok(!r.body.includes(VALUE));
    }
  }
  assert.equal((await t.app.http.inject({ method: 'GET', url: '/api/secrets' })).statusCode, 401);
  assert.ok(dotenv.parse(fs.readFileSync(envFile)).OTHER === '2' && !('X' in dotenv.parse(fs.readFileSync(envFile))));
});

test('bad keys get 422 naming the field; reserved keys 400; the value never appears in the error', async () => {
  for (const key of ['1ABC', 'A-B', 'A=B', 'A B', '', 'A\nB', 'x'.repeat(129)]) {
    const r = await req('POST', '/api/secrets', t.keys.admin, { key, value: VALUE });
    assert.equal(r.statusCode, 422, `${JSON.stringify(key)} ${r.body}`);
    assert.ok(r.json().error.details.some((d: { path: string }) => d.path === 'body.key'), r.body);
    assert.ok(!r.body.includes(VALUE));
  }
  const missing = await req('POST', '/api/secrets', t.keys.admin, { key: 'OK_KEY' });
  assert.equal(missing.statusCode, 422);
  assert.ok(missing.json().error.details.some((d: { path: string }) => d.path === 'body.value'));
  const del = await req('DELETE', '/api/secrets/1BAD', t.keys.admin);
  assert.equal(del.statusCode, 422);
  assert.equal(del.json().error.details[0].path, 'params.key');
  const reserved = await req('POST', '/api/secrets', t.keys.admin, { key: 'BASIN_SECRET_KEY', value: VALUE });
  assert.equal(reserved.statusCode, 400);
  assert.ok(!reserved.body.includes(VALUE));
});

test('a cookie session needs the CSRF header to change a secret', async () => {
  const noHeader = await t.app.http.inject({ method: 'POST', url: '/api/secrets', headers: { cookie: t.cookies.admin }, payload: { key: 'CSRF_KEY', value: VALUE } });
  assert.equal(noHeader.statusCode, 403);
  assert.equal(noHeader.json().error.code, 'csrf_rejected');
  const ok = await t.app.http.inject({ method: 'POST', url: '/api/secrets', headers: { cookie: t.cookies.admin, ...XHR }, payload: { key: 'CSRF_KEY', value: VALUE } });
  assert.equal(ok.statusCode, 200, ok.body);
});

test('every change is in the audit log with who and which key, never the value', async () => {
  const { items } = t.auth.audit.list(100, 0);
  const mine = items.filter((i) => i.action.startsWith('secret.'));
  assert.ok(mine.some((i) => i.action === 'secret.set' && i.target === 'STRIPE_KEY' && i.actor_email === 'admin@example.com' && i.details?.created === true));
  assert.ok(mine.some((i) => i.action === 'secret.unset' && i.target === 'LIVE_TOKEN'));
  assert.ok(mine.some((i) => i.action === 'secret.set' && i.target === 'CSRF_KEY' && i.actor_email === 'admin@example.com'));
  const all = JSON.stringify(items);
  for (const v of [VALUE, 'first', 'second', 'new value']) assert.ok(!all.includes(v), v);
});
