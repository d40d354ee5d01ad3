import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { createApp, definePlugin, grantedFrom, type BasinApp } from '@basin/core';
import { makeProject } from '@basin/test';

/**
 * The pages under /api/docs come from a second fastify app made on their first request
 * (src/http/docs-pages.ts): through a listening server they answer as Swagger UI registered on the
 * server did, with the server's own document, its 404 body, its hooks and its permission rule.
 */
const probe = definePlugin({
  name: 'probe',
  permissions: [{ name: 'probe.use', roles: grantedFrom.viewer }],
  register(ctx) {
    ctx.routes.post('/api/probe', { permission: 'probe.use', schema: { body: Type.Object({ n: Type.Integer() }) } }, async (req) => ({ n: req.body.n + 1 }));
  },
});

let app: BasinApp;
let base: string;
before(async () => {
  app = await createApp({ projectDir: makeProject(), plugins: [probe] });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
after(() => app?.close());

test('the Swagger UI page, its initializer and static files answer with their types and its CSP', async () => {
  for (const url of ['/api/docs', '/api/docs/']) {
    const page = await fetch(`${base}${url}`);
    assert.equal(page.status, 200, url);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.match(await page.text(), /swagger-initializer\.js/);
  }
  const init = await fetch(`${base}/api/docs/static/swagger-initializer.js`);
  assert.match(init.headers.get('content-type') ?? '', /^application\/javascript/);
  assert.match(await init.text(), /url: resolveUrl\('\.\/json'\)/);
  const css = await fetch(`${base}/api/docs/static/swagger-ui.css`);
  assert.equal(css.status, 200);
  assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
  const body = Buffer.from(await css.arrayBuffer());
  assert.equal(Number(css.headers.get('content-length')), body.length);
  // a conditional request gets 304 without a body, as @fastify/static answers it (not by fetch, which
  // adds cache-control: no-cache to a request with a validator)
  const again = await app.http.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css', headers: { 'if-none-match': css.headers.get('etag')! } });
  assert.deepEqual([again.statusCode, again.rawPayload.length], [304, 0]);
  const head = await fetch(`${base}/api/docs/static/swagger-ui.css`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal((await head.arrayBuffer()).byteLength, 0);
  const redirect = await fetch(`${base}/api/docs/static/index.html`, { redirect: 'manual' });
  assert.deepEqual([redirect.status, redirect.headers.get('location'), redirect.headers.get('content-type')], [302, '/api/docs/', null]);
});

test('the document is the server\'s own, as JSON and YAML, and lists routes added by plugins', async () => {
  const json = await fetch(`${base}/api/docs/json`);
  assert.equal(json.status, 200);
  const doc = (await json.json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
  assert.deepEqual(doc, JSON.parse(JSON.stringify(app.http.swagger())));
  assert.equal(doc.paths['/api/probe']!.post!['x-permission'], 'probe.use');
  // the documentation routes themselves stay out of it
  assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/api/docs')));
  const yaml = await fetch(`${base}/api/docs/yaml`);
  assert.match(yaml.headers.get('content-type') ?? '', /^application\/x-yaml/);
  assert.match(await yaml.text(), /^openapi: 3\.0\.3/);
});

test('a path with no page is the server\'s 404, in its error format; the pages are public', async () => {
  for (const url of ['/api/docs/nope', '/api/docs/static/nope.js']) {
    const res = await fetch(`${base}${url}`);
    assert.equal(res.status, 404, url);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
  }
  const route = app.routeTable.routes.filter((r) => r.url.startsWith('/api/docs'));
  assert.ok(route.length >= 2);
  for (const r of route) assert.equal(r.permission, 'public', `${r.method} ${r.url}`);
});
