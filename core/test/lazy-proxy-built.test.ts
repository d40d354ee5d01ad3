import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { makeProject } from '@basin/test';

// The built core's LazyHttpProxy (no TypeScript loader): fastify from core's bundle, @fastify/http-proxy
// from its own bundle on the first request (not before), HTTP and WebSocket through to an upstream.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const built = ['core/dist/index.js', 'core/dist/vendor/http.cjs', 'core/dist/vendor/http-proxy.cjs'].every((f) => fs.existsSync(path.join(root, f)));

const script = `
import http from 'node:http';
import { createRequire } from 'node:module';
import { createApp, definePlugin, grantedFrom, LazyHttpProxy } from '@basin/core';
const require = createRequire(import.meta.url);
const WebSocket = require('ws');
const proxyBundleLoaded = () => Object.keys(require.cache).some((k) => k.endsWith('http-proxy.cjs') && k.includes('dist'));
const upstream = http.createServer((req, res) => res.end(JSON.stringify({ url: req.url, who: req.headers['x-who'] })));
const wss = new WebSocket.WebSocketServer({ server: upstream });
wss.on('connection', (ws) => ws.on('message', (m) => ws.send('echo ' + m)));
await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
const up = 'http://127.0.0.1:' + upstream.address().port;
const probe = definePlugin({
  name: 'probe',
  permissions: [{ name: 'probe.use', roles: grantedFrom.viewer }],
  async register(ctx) {
    await new LazyHttpProxy().register(ctx.http, { upstream: '', prefix: '/up', rewritePrefix: '/up', websocket: true, config: { permission: 'probe.use', owner: 'probe' },
      replyOptions: { getUpstream: () => up, rewriteRequestHeaders: (req, h) => ({ ...h, 'x-who': req.principal?.kind ?? 'none' }) } });
  },
});
const app = await createApp({ projectDir: process.argv[1], plugins: [probe] });
const base = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\\/$/, '');
const out = { before: proxyBundleLoaded() };
out.get = await (await fetch(base + '/up/x?y=1')).json();
out.after = proxyBundleLoaded();
const ws = new WebSocket(base.replace('http', 'ws') + '/up/ws');
await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
out.ws = await new Promise((r) => { ws.once('message', (m) => r(String(m))); ws.send('hi'); });
await app.close();
upstream.closeAllConnections();
upstream.close();
console.log(JSON.stringify(out));
process.exit(0);
`;

test('built: the proxy bundle loads on the first request; HTTP and WebSocket pass', { skip: built ? false : 'needs the built packages (npm run build)' }, () => {
  const env = { ...process.env, NODE_OPTIONS: '' };
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, makeProject()], { cwd: path.join(root, 'core'), env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(out.before, false, 'not loaded at start');
  assert.deepEqual(out.get, { url: '/up/x?y=1', who: 'auth_disabled' });
  assert.equal(out.after, true);
  assert.equal(out.ws, 'echo hi');
});
