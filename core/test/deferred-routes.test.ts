import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createApp, definePlugin, grantedFrom } from '@basin/core';
import { makeProject } from '@basin/test';

// `basin sync` from the shell boots with deferRoutes (issue 19): nothing it runs is an HTTP request
let registered = 0;
const probe = definePlugin({
  name: 'probe',
  permissions: [{ name: 'probe.use', roles: grantedFrom.viewer }],
  register(ctx) {
    registered++;
    ctx.routes.post('/api/probe', { permission: 'probe.use', schema: { body: Type.Object({ n: Type.Integer() }) } }, async (req) => ({ n: req.body.n + 1 }));
  },
});
const probeRoutes = (routes: Array<{ owner: string }>) => routes.filter((r) => r.owner === 'probe').length;

test('deferred routes are added when fastify boots (an inject), with the hooks, validation, errors and OpenAPI document of every route', async () => {
  const app = await createApp({ projectDir: makeProject(), plugins: [probe], deferRoutes: true });
  try {
    assert.equal(registered, 1, 'the plugin registers as always');
    assert.equal(probeRoutes(app.routeTable.routes), 0, 'not added at boot');
    const ok = await app.http.inject({ method: 'POST', url: '/api/probe', payload: { n: 1 } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { n: 2 });
    assert.equal(probeRoutes(app.routeTable.routes), 1);
    // the schema's validator and core's error body
    const bad = await app.http.inject({ method: 'POST', url: '/api/probe', payload: { n: 'x' } });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().error.code, 'validation_failed');
    // root hooks added before the routes (the Origin rule for writes without auth) apply to them
    const cross = await app.http.inject({ method: 'POST', url: '/api/probe', payload: { n: 1 }, headers: { origin: 'http://evil.example' } });
    assert.equal(cross.statusCode, 403);
    assert.equal(cross.json().error.code, 'csrf_rejected');
    // the OpenAPI document (registered with them) lists them
    const doc = (await app.http.inject({ method: 'GET', url: '/api/docs/json' })).json();
    assert.equal(doc.paths['/api/probe'].post['x-permission'], 'probe.use');
  } finally {
    await app.close();
  }
});

test('an app closed without serving never adds its deferred routes; a route without a permission still fails the boot', async () => {
  const app = await createApp({ projectDir: makeProject(), plugins: [probe], deferRoutes: true });
  await app.close(); // fastify's close boots its queued plugins: the deferred routes stay out
  assert.equal(probeRoutes(app.routeTable.routes), 0);

  const careless = definePlugin({
    name: 'careless',
    register(ctx) {
      ctx.routes.get('/api/careless', {} as never, async () => 'x');
    },
  });
  await assert.rejects(createApp({ projectDir: makeProject(), plugins: [careless], deferRoutes: true }), /declares no permission/);
});
