// Requests per second through POST /api/query (a small aggregate) and GET /api/sources, 10 concurrent
// clients against a listening server on 127.0.0.1 (auth disabled), compared with a no-op route of the
// same server in the same run (the HTTP + framework baseline).
// Then (issue 12) login latency p50 and a non-query route's p50 while every query slot is busy with long
// queries, against the same server idle: queries run in their own processes, so the ratio should stay
// near 1 (goal: within 2x); and the peak RSS of the server and of the query processes under hostile queries.
// Usage: node --conditions=development --import tsx bench/query.ts [rows=100000] [requests=2000]
import { definePlugin } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import type { BasinApp } from '@basin/core';

const rows = Number(process.argv[2] ?? 100_000);
const requests = Number(process.argv[3] ?? 2000);
const CLIENTS = 10;

const noop = definePlugin({
  name: 'bench_noop',
  register(ctx) {
    ctx.routes.get('/bench/noop', { permission: 'public' }, async () => ({ ok: true }));
  },
});

async function boot(): Promise<{ app: BasinApp; sources: boolean }> {
  const dir = makeProject();
  disableAuth(dir);
  try {
    return { app: await bootApp(dir, { extraPlugins: [noop] }), sources: true };
  } catch (e) {
    console.log(`(booting every plugin failed: ${(e as Error).message.split('\n')[0]}; using the query plugin only)`);
    const { default: query } = await import('@basin/plugin-query');
    return { app: await bootApp(dir, { plugins: [query, noop] }), sources: false };
  }
}

async function load(base: string, make: () => [string, RequestInit]): Promise<{ rps: number; failures: number }> {
  let next = 0;
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < requests) {
        next++;
        const [path, init] = make();
        const r = await fetch(base + path, init);
        await r.arrayBuffer();
        if (!r.ok) failures++;
      }
    }),
  );
  return { rps: requests / ((performance.now() - t0) / 1000), failures };
}

const { app, sources } = await boot();
try {
  await app.warehouse.write(async (c) => {
    await c.run('CREATE SCHEMA IF NOT EXISTS raw_bench');
    await c.run(`CREATE OR REPLACE TABLE raw_bench.orders AS
      SELECT range AS id, ['EU','US','APAC','LATAM'][1 + range % 4] AS region, (range % 997) / 10.0 AS amount FROM range(${rows})`);
  });
  await app.warehouse.publishServingCopy();
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const sql = JSON.stringify({ sql: 'SELECT region, count(*) AS n, sum(amount) AS total FROM raw_bench.orders GROUP BY region ORDER BY region' });
  const post = (): [string, RequestInit] => ['/api/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: sql }];

  // warm-up (opens the read-only instance, JIT) of every measured route
  await load(base, post);
  await load(base, () => ['/bench/noop', {}]);
  if (sources) await load(base, () => ['/api/sources', {}]);
  let publishes = 0;
  const publish = app.warehouse.publishServingCopy.bind(app.warehouse);
  app.warehouse.publishServingCopy = () => (publishes++, publish());
  const baseline = await load(base, () => ['/bench/noop', {}]);
  const q = await load(base, post);
  const s = sources && app.routeTable.find('GET', '/api/sources') ? await load(base, () => ['/api/sources', {}]) : null;

  console.log(`size: ${rows} rows in raw_bench.orders, ${requests} requests per measurement, ${CLIENTS} concurrent clients`);
  console.log(`baseline GET /bench/noop        ${baseline.rps.toFixed(0).padStart(7)} req/s  (failures ${baseline.failures})`);
  console.log(`POST /api/query (aggregate)     ${q.rps.toFixed(0).padStart(7)} req/s  ratio ${(q.rps / baseline.rps).toFixed(3)}  (failures ${q.failures})`);
  console.log(`serving copy republished ${publishes} times during the measurements`);
  if (s) console.log(`GET /api/sources                ${s.rps.toFixed(0).padStart(7)} req/s  ratio ${(s.rps / baseline.rps).toFixed(3)}  (failures ${s.failures})`);
  else console.log('GET /api/sources: not measured (the sources routes are not available in this build)');
} finally {
  await app.close();
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(n: number, fn: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fn();
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    out.push(performance.now() - t0);
  }
  return out;
}

/** login and a non-query route, idle vs. every query slot busy; peak RSS under hostile queries */
async function saturation(): Promise<void> {
  const { default: query } = await import('@basin/plugin-query');
  const { default: auth, authRef } = await import('@basin/plugin-auth');
  const dir = makeProject();
  const sat = await bootApp(dir, { plugins: [auth, query, noop] });
  try {
    const svc = sat.resolve(authRef);
    const user = await svc.addUserWithPassword({ id: null, email: 'bench' }, 'bench@example.com', 'admin', 'correct-horse-battery-staple-42');
    const key = svc.createKey(user, 'bench', null, null).key;
    await sat.warehouse.write(async (c) => {
      await c.run('CREATE SCHEMA IF NOT EXISTS raw_bench');
      await c.run('CREATE OR REPLACE TABLE raw_bench.t AS SELECT range AS id FROM range(1000)');
    });
    await sat.warehouse.publishServingCopy();
    const base = await sat.listen({ host: '127.0.0.1', port: 0 });
    const login = () =>
      fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify({ email: 'bench@example.com', password: 'correct-horse-battery-staple-42' }),
      });
    const noopGet = () => fetch(`${base}/bench/noop`);
    const q = (sql: string) =>
      fetch(`${base}/api/query`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ sql }) });
    await timed(3, login);
    await timed(20, noopGet);
    const idleLogin = await timed(15, login);
    const idleNoop = await timed(200, noopGet);

    // keep every slot (2 by default) and the queue busy with queries that run for seconds
    let stop = false;
    const heavy = 'SELECT sum(a.range * b.range) FROM range(30000) a, range(30000) b';
    const loops = Array.from({ length: 4 }, async () => {
      while (!stop) await (await q(heavy)).arrayBuffer();
    });
    await new Promise((r) => setTimeout(r, 1500));
    const busyLogin = await timed(15, login);
    const busyNoop = await timed(200, noopGet);
    stop = true;
    await Promise.all(loops);

    console.log('');
    console.log('while every query slot is busy (4 clients looping long queries, api.query_concurrency 2) vs idle, p50:');
    console.log(`login (bcrypt)     idle ${p50(idleLogin).toFixed(1).padStart(7)} ms   saturated ${p50(busyLogin).toFixed(1).padStart(7)} ms   ratio ${(p50(busyLogin) / p50(idleLogin)).toFixed(2)}`);
    console.log(`GET /bench/noop    idle ${p50(idleNoop).toFixed(2).padStart(7)} ms   saturated ${p50(busyNoop).toFixed(2).padStart(7)} ms   ratio ${(p50(busyNoop) / p50(idleNoop)).toFixed(2)}`);

    // hostile queries: the server's own RSS must stay small (goal under 1 GB); the query processes are capped
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const rssBefore = process.memoryUsage().rss;
    for (const sql of ['SELECT len(range(1000000000))', 'SELECT len(range(70000000))', "SELECT repeat('x', 60000) FROM range(10000)"]) {
      const r = await q(sql);
      const body = (await r.json()) as { error?: { code: string }; truncated_reason?: string };
      console.log(`${sql.padEnd(46)} → ${r.status} ${body.error?.code ?? `truncated_reason ${body.truncated_reason}`}`);
    }
    clearInterval(sampler);
    console.log(`server RSS: before ${(rssBefore / 1e6).toFixed(0)} MB, peak during hostile queries ${(peak / 1e6).toFixed(0)} MB (goal < 1024 MB)`);
  } finally {
    await sat.close();
  }
}

await saturation();
