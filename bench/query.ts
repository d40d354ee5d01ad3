// Requests per second through POST /api/query (a small aggregate) and GET /api/sources, 10 concurrent
// clients against a listening server on 127.0.0.1 (auth disabled), compared with a no-op route of the
// same server in the same run (the HTTP + framework baseline).
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
