import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket, { WebSocketServer } from 'ws';
import Fastify, { type FastifyInstance } from 'fastify';
import { BasinError, createApp, definePlugin, grantedFrom, LazyHttpProxy, type BasinApp, type LazyProxyOptions } from '@basin/core';
import { makeProject } from '@basin/test';
import { PROXY_DEFAULT_METHODS, PROXY_DEFAULT_ROUTES } from '../src/http/lazy-proxy.js';

/**
 * core's LazyHttpProxy against a real upstream (HTTP and WebSocket) on loopback: the routes exist and are
 * guarded from the start, @fastify/http-proxy loads on the first request, and what passes through is what
 * the proxy passes (body bytes, rewritten headers made from Basin's request, the upstream's answer).
 */
const require = createRequire(import.meta.url);
const proxyLoaded = () => Object.keys(require.cache).some((k) => k.includes(`${'@fastify'}/http-proxy/`));

let upstream: http.Server;
let upstreamUrl = '';
let hits = 0;
let app: BasinApp;
let base = '';

const probe = definePlugin({
  name: 'probe',
  permissions: [{ name: 'probe.use', roles: grantedFrom.viewer }],
  async register(ctx) {
    const proxy = new LazyHttpProxy();
    await ctx.http.register(async (scope) => {
      await proxy.register(scope, {
        upstream: '',
        prefix: '/up',
        rewritePrefix: '/up',
        websocket: true,
        config: { permission: 'probe.use', owner: 'probe' },
        preHandler: async (req) => {
          if (req.headers['x-deny']) throw new BasinError(409, 'probe_busy', 'Busy.');
        },
        replyOptions: {
          getUpstream: (req) => (req.headers['x-down'] ? 'http://127.0.0.1:9' : upstreamUrl),
          // Basin's request (its principal), not the proxy's own
          rewriteRequestHeaders: (req, headers) => ({ ...headers, 'x-kind': req.principal?.kind ?? 'none' }),
        },
        wsClientOptions: {
          rewriteRequestHeaders: (headers, req) => ({ ...headers, 'x-kind': (req as { principal?: { kind: string } }).principal?.kind ?? 'none' }),
        },
      });
    });
  },
});

before(async () => {
  upstream = http.createServer((req, res) => {
    hits++;
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.setHeader('x-upstream', 'yes');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, kind: req.headers['x-kind'], type: req.headers['content-type'] ?? null, body }));
    });
  });
  const wss = new WebSocketServer({ server: upstream });
  wss.on('connection', (ws, req) => ws.on('message', (m) => ws.send(`${req.url} ${req.headers['x-kind']} ${m.toString()}`)));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  app = await createApp({ projectDir: makeProject(), plugins: [probe] });
  base = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
});
after(async () => {
  await app?.close();
  upstream?.closeAllConnections();
  await new Promise((r) => upstream?.close(r));
});

test('the routes are declared and guarded at start; the proxy module loads on the first request that passes', async () => {
  const routes = app.routeTable.routes.filter((r) => r.owner === 'probe');
  assert.ok(routes.length >= 14 && routes.every((r) => r.permission === 'probe.use'));
  assert.deepEqual([...new Set(routes.map((r) => r.method))].sort(), [...PROXY_DEFAULT_METHODS].sort());

  const denied = await fetch(`${base}/up/x`, { headers: { 'x-deny': '1' } });
  assert.equal(denied.status, 409);
  assert.equal((await denied.json()).error.code, 'probe_busy');
  assert.equal(hits, 0);
  assert.equal(proxyLoaded(), false, 'not loaded while no request reached the proxy');
});

test('GET and POST pass through with the body as sent and headers made from Basin’s request', async () => {
  const get = await fetch(`${base}/up/echo?q=1&r=a%20b`);
  assert.equal(get.status, 200);
  assert.equal(get.headers.get('x-upstream'), 'yes');
  assert.deepEqual(await get.json(), { method: 'GET', url: '/up/echo?q=1&r=a%20b', kind: 'auth_disabled', type: null, body: '' });
  assert.ok(proxyLoaded(), 'loaded on first use');

  const text = '{ "a" :  1 }';
  const post = await fetch(`${base}/up/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  assert.equal(post.status, 200);
  assert.deepEqual(await post.json(), { method: 'POST', url: '/up/things', kind: 'auth_disabled', type: 'application/json', body: text });

  const other = await fetch(`${base}/up/`, { method: 'PUT', headers: { 'content-type': 'application/x-whatever' }, body: 'raw bytes' });
  assert.equal((await other.json()).body, 'raw bytes');
});

test("an upstream that does not answer is rendered by Basin's error handler", async () => {
  const res = await fetch(`${base}/up/echo`, { headers: { 'x-down': '1' } });
  assert.equal(res.status, 500);
  assert.equal((await res.json()).error.code, 'internal_error');
});

test('WebSocket upgrades go through the route (its preHandler can refuse) to the upstream', async () => {
  const refused = new WebSocket(`${base.replace('http', 'ws')}/up/ws`, { headers: { 'x-deny': '1' } });
  const status = await new Promise<number>((resolve, reject) => {
    refused.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    refused.on('open', () => reject(new Error('opened')));
    refused.on('error', () => undefined);
  });
  assert.equal(status, 409);

  const ws = new WebSocket(`${base.replace('http', 'ws')}/up/ws?x=1`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const echoed = new Promise<string>((resolve) => ws.once('message', (m) => resolve(m.toString())));
  ws.send('hello');
  assert.equal(await echoed, '/up/ws?x=1 auth_disabled hello');
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  // closing Basin closes the proxied socket too (else the server would wait for it)
  await app.close();
  await closed;
});

test("the proxy's defaults are @fastify/http-proxy's", () => {
  const mod = require('@fastify/http-proxy') as { defaultRoutes: string[]; defaultHttpMethods: string[] };
  assert.deepEqual(PROXY_DEFAULT_ROUTES, mod.defaultRoutes);
  assert.deepEqual(PROXY_DEFAULT_METHODS, mod.defaultHttpMethods);
});

/** every route an instance declares, with its methods and config */
async function declared(register: (app: FastifyInstance) => Promise<void>): Promise<string[]> {
  const app = Fastify();
  const seen: string[] = [];
  app.addHook('onRoute', (r) => void seen.push(`${[r.method].flat().join(',')} ${r.url} ${JSON.stringify(r.config)} ${typeof r.preHandler}`));
  await app.register(async (scope) => register(scope));
  await app.ready();
  await app.close();
  return seen.sort();
}

test('the routes declared are the ones @fastify/http-proxy declares with the same options', async () => {
  const httpProxy = require('@fastify/http-proxy');
  const preHandler = async () => undefined;
  const replyOptions = { getUpstream: () => 'http://127.0.0.1:9' };
  const cases: LazyProxyOptions[] = [
    { upstream: '', prefix: '/up', rewritePrefix: '/up', websocket: true, config: { permission: 'p' }, preHandler },
    { upstream: '', prefix: '/bi', routes: ['/api/v1/x/:id', '/api/v1/x/*'], httpMethods: ['POST'], config: { permission: 'q' }, preHandler, replyOptions },
    { upstream: '', prefix: '/static', httpMethods: ['GET', 'HEAD'], rewritePrefix: '/bi/static', replyOptions },
  ];
  for (const opts of cases) {
    const real = await declared(async (s) => {
      await s.register(httpProxy, opts);
    });
    const lazy = await declared((s) => new LazyHttpProxy().register(s, opts));
    assert.deepEqual(lazy, real, JSON.stringify(opts));
  }
  // a proxy without an upstream fails at start, as the real one does
  await assert.rejects(declared((s) => new LazyHttpProxy().register(s, { upstream: '', prefix: '/x' })), /upstream must be specified/);
});
