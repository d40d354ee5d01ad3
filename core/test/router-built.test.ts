import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

// The built core's fastify (dist/vendor/http.cjs) compiles find-my-way's prefix matchers on their first
// lookup instead of as routes are added (core/tsup.config.ts): routes sharing prefixes (so nodes split)
// still match exactly, and each matcher is compiled once and kept.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bundle = path.join(root, 'core/dist/vendor/http.cjs');

/** runs `source` in a fresh Node (the built bundle, no test-runner conditions) and returns the JSON it printed last */
function runBuilt(source: string) {
  const r = spawnSync(process.execPath, ['-e', source], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const script = `
const Real = Function;
let compiled = 0;
// counts the prefix matchers find-my-way compiles: new Function('path', 'i', body)
globalThis.Function = new Proxy(Real, { construct(t, args) { if (args[0] === 'path' && args[1] === 'i') compiled++; return Reflect.construct(t, args); } });
const { fastify } = require(${JSON.stringify(bundle)});
const app = fastify({ exposeHeadRoutes: false });
const urls = [];
for (const area of ['sources', 'source_types', 'sync', 'syncs', 'schedules', 'scheduler', 'settings']) {
  for (const leaf of ['', '/status', '/stats', '/:name', '/:name/runs', '/:name/run_now']) urls.push('/api/' + area + leaf);
}
for (const url of urls) app.get(url, async (req) => ({ url, params: req.params }));
(async () => {
  await app.ready();
  const out = { routes: urls.length, beforeRequests: compiled, answers: {} };
  const probe = ['/api/sources', '/api/source_types/stats', '/api/sync/status', '/api/syncs/orders/runs', '/api/schedules/nightly/run_now',
    '/api/scheduler', '/api/settings/x', '/api/sourcez', '/api/sync2', '/api/schedule', '/api/settings/x/runz', '/ap'];
  for (const u of probe) { const r = await app.inject(u); out.answers[u] = r.statusCode === 200 ? r.json() : r.statusCode; }
  out.afterFirstPass = compiled;
  for (const u of probe) await app.inject(u);
  out.afterSecondPass = compiled;
  console.log(JSON.stringify(out));
})();
`;

test('built: the router matches shared prefixes exactly, compiling each prefix matcher once, on first use', { skip: fs.existsSync(bundle) ? false : 'needs the built packages (npm run build)' }, () => {
  const out = runBuilt(script);
  assert.deepEqual(out.answers, {
    '/api/sources': { url: '/api/sources', params: {} },
    '/api/source_types/stats': { url: '/api/source_types/stats', params: {} },
    '/api/sync/status': { url: '/api/sync/status', params: {} },
    '/api/syncs/orders/runs': { url: '/api/syncs/:name/runs', params: { name: 'orders' } },
    '/api/schedules/nightly/run_now': { url: '/api/schedules/:name/run_now', params: { name: 'nightly' } },
    '/api/scheduler': { url: '/api/scheduler', params: {} },
    '/api/settings/x': { url: '/api/settings/:name', params: { name: 'x' } },
    '/api/sourcez': 404,
    '/api/sync2': 404,
    '/api/schedule': 404,
    '/api/settings/x/runz': 404,
    '/ap': 404,
  });
  // 42 routes make dozens of static nodes (and splits); none is looked up while they are added
  assert.equal(out.beforeRequests, 0);
  assert.ok(out.afterFirstPass > 0, 'the lookups compiled the matchers they used');
  assert.equal(out.afterSecondPass, out.afterFirstPass, 'kept: the same lookups compile nothing again');
});

// The same bundle compiles find-my-way's per-handler functions (the params object builder, the
// constraint matcher) on first use too: params (also past the fourth) and constraints still work, and
// each function is compiled once, for the handlers that are used.
const handlerScript = `
const Real = Function;
const compiled = { params: 0, constraints: 0 };
globalThis.Function = new Proxy(Real, { construct(t, args) {
  if (args[0] === 'NullObject') compiled.params++;
  if (args[0] === 'derivedConstraints') compiled.constraints++;
  return Reflect.construct(t, args);
} });
const { fastify } = require(${JSON.stringify(bundle)});
const app = fastify();
for (let i = 0; i < 50; i++) app.get('/api/area' + i + '/:name', async (req) => ({ params: req.params }));
app.get('/api/deep/:a/:b/:c/:d/:e/:f', async (req) => ({ params: req.params }));
app.get('/api/hosted', { constraints: { host: 'a.example' } }, async () => ({ host: 'a' }));
app.get('/api/hosted', { constraints: { host: 'b.example' } }, async () => ({ host: 'b' }));
(async () => {
  await app.ready();
  const out = { beforeRequests: { ...compiled }, answers: {} };
  const probe = [['/api/area7/orders'], ['/api/deep/1/2/3/4/5/6'], ['/api/hosted', 'a.example'], ['/api/hosted', 'b.example'], ['/api/hosted', 'c.example']];
  for (const [u, host] of probe) {
    const r = await app.inject({ url: u, headers: host ? { host } : {} });
    out.answers[u + (host ? ' @' + host : '')] = r.statusCode === 200 ? r.json() : r.statusCode;
  }
  out.afterFirstPass = { ...compiled };
  for (const [u, host] of probe) await app.inject({ url: u, headers: host ? { host } : {} });
  out.afterSecondPass = { ...compiled };
  console.log(JSON.stringify(out));
})();
`;

test('built: route handlers compile their params builder and constraint matcher on first use, once', { skip: fs.existsSync(bundle) ? false : 'needs the built packages (npm run build)' }, () => {
  const out = runBuilt(handlerScript);
  assert.deepEqual(out.answers, {
    '/api/area7/orders': { params: { name: 'orders' } },
    '/api/deep/1/2/3/4/5/6': { params: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' } },
    '/api/hosted @a.example': { host: 'a' },
    '/api/hosted @b.example': { host: 'b' },
    '/api/hosted @c.example': 404,
  });
  // 53 routes and their HEAD twins were added without compiling either function
  assert.deepEqual(out.beforeRequests, { params: 0, constraints: 0 });
  // only for the handlers the probes reached (the two parametric routes, the two hosted ones, fastify's
  // not-found route) and the nodes they matched on, not for the 106 handlers added
  assert.ok(out.afterFirstPass.params >= 2 && out.afterFirstPass.params <= 6, JSON.stringify(out.afterFirstPass));
  assert.ok(out.afterFirstPass.constraints >= 1 && out.afterFirstPass.constraints <= 4, JSON.stringify(out.afterFirstPass));
  assert.deepEqual(out.afterSecondPass, out.afterFirstPass, 'kept: the same requests compile nothing again');
});

// Routes added one after another share one avvio `after` in the built bundle (core/tsup.config.ts):
// what a route reads when its settings are applied is what it read with an `after` of its own.
test('the built fastify queues one avvio after for consecutive routes, and each route keeps its scope\'s settings, hooks and order', () => {
  const out = runBuilt(`
const { fastify } = require(${JSON.stringify(bundle)});
const app = fastify({ exposeHeadRoutes: false });
let afters = 0;
const after = app.after;
app.after = function (fn) { if (typeof fn === 'function') afters++; return after.apply(this, arguments); };
const seen = [];
app.addHook('onRequest', async (req) => { seen.push('root:' + req.url); });
for (let i = 0; i < 200; i++) app.get('/r' + i, async () => ({ i }));
// set after the routes in the same scope: those routes still use them, as fastify documents
app.setErrorHandler((err, req, reply) => reply.code(599).send({ handler: 'root' }));
app.addHook('preHandler', async (req) => { seen.push('pre:' + req.url); });
app.get('/boom', async () => { throw new Error('x'); });
app.register(async (child) => {
  child.addHook('onRequest', async (req) => { seen.push('child:' + req.url); });
  child.get('/child', async () => 'c');
  child.setErrorHandler((err, req, reply) => reply.code(598).send({ handler: 'child' }));
  child.get('/child/boom', async () => { throw new Error('y'); });
}, { prefix: '/c' });
// a route added after a plugin was registered waits behind it, as before
app.get('/later', async () => { throw new Error('z'); });
(async () => {
  await app.ready();
  const r = async (u) => { const x = await app.inject(u); return [x.statusCode, x.json()]; };
  const answers = { r7: await r('/r7'), r199: await r('/r199'), boom: await r('/boom'), child: (await app.inject('/c/child')).body, childBoom: await r('/c/child/boom'), later: await r('/later') };
  console.log(JSON.stringify({ afters, answers, seen }));
})();
`);
  assert.deepEqual(out.answers, {
    r7: [200, { i: 7 }],
    r199: [200, { i: 199 }],
    boom: [599, { handler: 'root' }],
    child: 'c',
    childBoom: [598, { handler: 'child' }],
    later: [599, { handler: 'root' }],
  });
  // root hooks, the later preHandler included, and the child's own hook, in fastify's order
  assert.deepEqual(out.seen.slice(0, 4), ['root:/r7', 'pre:/r7', 'root:/r199', 'pre:/r199']);
  assert.ok(out.seen.includes('child:/c/child'));
  // 204 routes: a handful of afters (a run of consecutive routes each, and fastify's own for hooks)
  // instead of one per route
  assert.ok(out.afters <= 10, `${out.afters} afters`);
});
