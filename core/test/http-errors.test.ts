import net from 'node:net';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { createApp, defineErrors, definePlugin, grantedFrom, type BasinApp } from '@basin/core';
import { makeProject } from '@basin/test';

/** The HTTP layer's own errors and the error catalogue, on an app with one small plugin and no auth. */
const probeErrors = defineErrors('http-errors-test', {
  probe_conflict: { status: 409, message: (a: { name: string }) => `Probe ${a.name} is busy.` },
  probe_gone: { status: 410, message: 'Gone.' },
});
const probe = definePlugin({
  name: 'probe',
  permissions: [{ name: 'probe.use', roles: grantedFrom.viewer }],
  register(ctx) {
    ctx.routes.post(
      '/api/probe/:name',
      { permission: 'probe.use', schema: { params: Type.Object({ name: Type.String({ maxLength: 10 }) }), body: Type.Object({ n: Type.Integer() }) }, errors: [probeErrors.probe_conflict] },
      // typed from the schema: params.name is a string, body.n a number
      async (req) => {
        if (req.body.n > 1) throw probeErrors.probe_conflict({ name: req.params.name }, { details: { n: req.body.n } });
        return { name: req.params.name.toUpperCase(), n: req.body.n + 1 };
      },
    );
  },
});

let app: BasinApp;
let port: number;
before(async () => {
  app = await createApp({ projectDir: makeProject(), plugins: [probe] });
  port = Number(new URL(await app.listen({ host: '127.0.0.1', port: 0 })).port);
});
after(() => app?.close());

const raw = (text: string) =>
  new Promise<string>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('end', () => resolve(out));
    s.on('error', () => resolve(out));
  });

test('a catalogued error renders its code, status, message and details; typed handlers see validated input', async () => {
  const ok = await app.http.inject({ method: 'POST', url: '/api/probe/abc', payload: { n: 1 } });
  assert.deepEqual(ok.json(), { name: 'ABC', n: 2 });
  const busy = await app.http.inject({ method: 'POST', url: '/api/probe/abc', payload: { n: 5 } });
  assert.equal(busy.statusCode, 409);
  assert.deepEqual(busy.json(), { error: { code: 'probe_conflict', message: 'Probe abc is busy.', details: { n: 5 } } });
});

test('a code belongs to one package', () => {
  assert.throws(() => defineErrors('another-package', { probe_gone: { status: 410, message: 'x' } }), /declared by both/);
  assert.throws(() => defineErrors('bad', { 'Not Snake': { status: 400, message: 'x' } }), /snake_case/);
});

test('a known path with another method is 405 with Allow, also for methods no route takes', async () => {
  for (const method of ['GET', 'DELETE', 'QUERY'] as const) {
    // QUERY carries a body and fails body parsing before any route lookup: still 405
    const r = await app.http.inject({ method: method as 'GET', url: '/api/probe/abc', payload: method === 'QUERY' ? 'x' : undefined });
    assert.equal(r.statusCode, 405, method);
    assert.equal(r.headers.allow, 'POST');
    assert.equal(r.json().error.code, 'method_not_allowed');
  }
  const none = await app.http.inject({ method: 'GET', url: '/api/nothing-here' });
  assert.equal(none.statusCode, 404);
  assert.equal(none.json().error.code, 'not_found');
});

test('framework errors carry the standard body: 431, malformed request, invalid JSON, 415, 413, long parameters reach validation', async () => {
  const big = await raw(`GET /api/status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`);
  assert.match(big, /^HTTP\/1.1 431 /);
  assert.equal(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4)).error.code, 'headers_too_large');
  const garbage = await raw('NOT HTTP\r\n\r\n');
  assert.match(garbage, /^HTTP\/1.1 400 /);
  assert.equal(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)).error.code, 'bad_request');

  const json = await app.http.inject({ method: 'POST', url: '/api/probe/abc', headers: { 'content-type': 'application/json' }, payload: '{"n":' });
  assert.deepEqual([json.statusCode, json.json().error.code], [400, 'invalid_json']);
  const media = await app.http.inject({ method: 'POST', url: '/api/probe/abc', headers: { 'content-type': 'text/x-unknown' }, payload: 'n' });
  assert.deepEqual([media.statusCode, media.json().error.code], [415, 'unsupported_media_type']);
  const large = await app.http.inject({ method: 'POST', url: '/api/probe/abc', payload: { n: 1, pad: 'x'.repeat(2 * 1024 * 1024) } });
  assert.deepEqual([large.statusCode, large.json().error.code], [413, 'payload_too_large']);
  const long = await app.http.inject({ method: 'POST', url: `/api/probe/${'p'.repeat(300)}`, payload: { n: 1 } });
  assert.deepEqual([long.statusCode, long.json().error.code], [422, 'validation_failed']);
});

test('the OpenAPI document lists the route\'s statuses with their codes', async () => {
  const doc = (await app.http.inject({ method: 'GET', url: '/api/docs/json' })).json();
  const r = doc.paths['/api/probe/{name}'].post.responses;
  const codes = (s: string) => r[s].content['application/json'].schema.properties.error.properties.code.enum;
  assert.deepEqual(codes('409'), ['probe_conflict']);
  assert.deepEqual(codes('400'), ['bad_request', 'invalid_json']);
  assert.deepEqual(codes('405'), ['method_not_allowed']);
  assert.ok(r['405'].headers.allow);
  assert.deepEqual(codes('422'), ['validation_failed']);
  assert.ok(codes('403').includes('forbidden'));
  assert.equal(r['200'].description, 'Default Response');
});
