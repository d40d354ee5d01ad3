import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createApp, definePlugin, errors, loadPlugins, runCli } from '@basin/core';
import { disableAuth, makeProject } from '@basin/test';

const fixture = path.resolve(import.meta.dirname, 'fixtures', 'test-plugin');

function withOutsidePlugin(): string {
  const dir = makeProject();
  disableAuth(dir);
  const f = path.join(dir, '.basin', 'project.yml');
  fs.appendFileSync(f, `\nplugins:\n  - ${JSON.stringify(fixture)}\n`);
  return dir;
}

test('an outside plugin listed in project.yml adds a route, a permission and appears in OpenAPI, with no core change', async () => {
  const dir = withOutsidePlugin();
  const app = await createApp({ projectDir: dir, plugins: (await loadPlugins(dir)).filter((p) => ['platform', 'test-greeter'].includes(p.name)) });
  try {
    assert.ok(app.permissions.has('greeter.greet'));
    assert.equal(app.permissions.roleHas('viewer', 'greeter.greet'), true);
    const r = await app.http.inject({ method: 'GET', url: '/api/greeter/hello?name=ada' });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), { greeting: 'hello, ada' });
    const doc = (await app.http.inject({ method: 'GET', url: '/api/docs/json' })).json();
    assert.equal(doc.paths['/api/greeter/hello'].get['x-permission'], 'greeter.greet');
    assert.equal(doc.paths['/api/greeter/hello'].get.summary, 'Greets the caller');
    assert.ok(app.routeTable.find('GET', '/api/greeter/hello'));
  } finally {
    await app.close();
  }
});

test("the outside plugin's CLI command is listed in help and runs", async () => {
  const dir = withOutsidePlugin();
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c) => chunks.push(String(c)));
  const code = await runCli(['greet', 'grace', '--project', dir], { stdout: out, stderr: out });
  assert.equal(code, 0, chunks.join(''));
  assert.match(chunks.join(''), /hello, grace/);
  const help: string[] = [];
  const out2 = new PassThrough();
  out2.on('data', (c) => help.push(String(c)));
  await runCli(['--help', '--project', dir], { stdout: out2, stderr: out2 });
  assert.match(help.join(''), /greet/);
  assert.match(help.join(''), /init/);
  assert.match(help.join(''), /start/);
});

test('a route that declares no permission stops start-up', async () => {
  const dir = makeProject();
  const bad = definePlugin({
    name: 'bad',
    register(ctx) {
      ctx.http.get('/api/sneaky', async () => ({ ok: true }));
    },
  });
  await assert.rejects(createApp({ projectDir: dir, plugins: [bad] }), /Route GET \/api\/sneaky declares no permission/);
  const bad2 = definePlugin({
    name: 'bad2',
    register(ctx) {
      ctx.routes.get('/api/x', { permission: 'made.up' }, async () => ({}));
    },
  });
  await assert.rejects(createApp({ projectDir: dir, plugins: [bad2] }), /unknown permission "made\.up"/);
});

test('error bodies: 404 unknown route, 422 with per-field details, 500 that leaks nothing, 400 bad JSON', async () => {
  const dir = makeProject();
  disableAuth(dir);
  const p = definePlugin({
    name: 'errs',
    register(ctx) {
      ctx.routes.post(
        '/api/errs/echo',
        { permission: 'public', schema: { body: { type: 'object', required: ['name', 'count'], properties: { name: { type: 'string' }, count: { type: 'integer' } } } } },
        async (req) => req.body,
      );
      ctx.routes.get('/api/errs/crash', { permission: 'public' }, async () => {
        throw new Error('database password is hunter2');
      });
      ctx.routes.get('/api/errs/conflict', { permission: 'public' }, async () => {
        throw errors.conflict('sync_in_progress', 'A sync of shop is already running.');
      });
    },
  });
  const app = await createApp({ projectDir: dir, plugins: [p] });
  try {
    const nf = await app.http.inject({ method: 'GET', url: '/api/does-not-exist' });
    assert.equal(nf.statusCode, 404);
    assert.deepEqual(nf.json(), { error: { code: 'not_found', message: 'No route GET /api/does-not-exist.' } });

    const v = await app.http.inject({ method: 'POST', url: '/api/errs/echo', payload: { count: 'x' } });
    assert.equal(v.statusCode, 422);
    const body = v.json();
    assert.equal(body.error.code, 'validation_failed');
    const paths = body.error.details.map((d: { path: string }) => d.path).sort();
    assert.deepEqual(paths, ['body.count', 'body.name']);

    const c = await app.http.inject({ method: 'GET', url: '/api/errs/crash' });
    assert.equal(c.statusCode, 500);
    assert.equal(c.json().error.code, 'internal_error');
    assert.doesNotMatch(c.body, /hunter2/);

    const j = await app.http.inject({ method: 'POST', url: '/api/errs/echo', headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
    assert.equal(j.statusCode, 400);
    assert.equal(j.json().error.code, 'invalid_json');

    const k = await app.http.inject({ method: 'GET', url: '/api/errs/conflict' });
    assert.equal(k.statusCode, 409);
    assert.deepEqual(k.json(), { error: { code: 'sync_in_progress', message: 'A sync of shop is already running.' } });
  } finally {
    await app.close();
  }
});

test('auth disabled refuses to listen on a non-loopback host', async () => {
  const dir = makeProject();
  const app = await createApp({ projectDir: dir, plugins: [] });
  try {
    await assert.rejects(app.listen({ host: '0.0.0.0', port: 0 }), /only listen on loopback/);
  } finally {
    await app.close();
  }
});
