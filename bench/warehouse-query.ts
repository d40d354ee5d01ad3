// Query latency of the demo marts on each warehouse backend (issue 22), in one run: for DuckDB,
// PostgreSQL (Debian's server, started here) and Trino + Iceberg (the test support's coordinator), a
// project with the demo's sources and dbt models is synced (DuckDB loads; the server gets the tables),
// dbt builds the marts through the backend's dbt target, then POST /api/query (the read-only path a
// user and the UI take) runs four typical mart queries; medians and p95 per backend and the ratio to
// DuckDB are printed. Not a test.
//   node --conditions=development --import tsx bench/warehouse-query.ts [requests per query=30] [backends=duckdb,postgres,trino]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { makeRunDir, stopSharedServers } from '../scripts/lib/shared-servers.mjs';
import { clientFor, warehousesUnderTest, type RunningWarehouse } from '../test/support/warehouse-backends.js';

const REQUESTS = Number(process.argv[2] ?? 30);
const backends = (process.argv[3] ?? 'duckdb,postgres,trino').split(',');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(root, 'examples/demo');
const uploads = path.join(demo, 'data/uploads');
if (!fs.existsSync(path.join(uploads, 'orders'))) execFileSync(process.execPath, [path.join(demo, 'generate-data.mjs')], { stdio: 'inherit' });

/** what a dashboard or an analyst asks the marts (portable SQL; `t` qualifies a mart in the backend's names) */
const QUERIES: Record<string, (t: (name: string) => string) => string> = {
  'revenue by channel': (t) => `SELECT channel, sum(revenue) AS revenue, sum(orders) AS orders FROM ${t('mart_daily_revenue')} GROUP BY channel ORDER BY revenue DESC`,
  'last 30 days': (t) => `SELECT order_date, sum(revenue) AS revenue FROM ${t('mart_daily_revenue')} GROUP BY order_date ORDER BY order_date DESC LIMIT 30`,
  'customers by country': (t) => `SELECT country, count(*) AS customers, sum(lifetime_value) AS ltv, avg(orders) AS orders FROM ${t('dim_customers')} GROUP BY country ORDER BY ltv DESC`,
  'top orders': (t) => `SELECT order_id, customer_id, country, order_date, amount, line_count FROM ${t('fct_orders')} WHERE status = 'completed' ORDER BY amount DESC, order_id LIMIT 100`,
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

/** a project with the demo's sources, data and intermediate + mart models on this warehouse */
function demoProject(): string {
  const dir = makeProject({ '.basin/sources.yml': fs.readFileSync(path.join(demo, '.basin/sources.yml'), 'utf8') });
  disableAuth(dir);
  fs.cpSync(uploads, path.join(dir, 'data/uploads'), { recursive: true });
  for (const layer of ['intermediate', 'marts']) fs.cpSync(path.join(demo, 'tx/models', layer), path.join(dir, 'tx/models', layer), { recursive: true });
  return dir;
}

function configure(dir: string, running: RunningWarehouse): void {
  const file = path.join(dir, '.basin/project.yml');
  const doc = parse(fs.readFileSync(file, 'utf8')) ?? {};
  // dbt runs when the bench says so (not after each sync), without docs
  doc.platform = { ...(doc.platform ?? {}), auto_tx: false };
  doc.tx = { ...(doc.tx ?? {}), docs_after_run: false };
  if (running.section.type !== 'duckdb') doc.warehouse = running.section;
  fs.writeFileSync(file, stringify(doc));
  Object.assign(process.env, running.env);
}

async function measure(app: BasinApp): Promise<{ perQuery: Record<string, number[]>; all: number[] }> {
  const t = (name: string) => app.warehouseClient.capabilities.qualify('main', name);
  const perQuery: Record<string, number[]> = {};
  const all: number[] = [];
  for (const [name, sql] of Object.entries(QUERIES)) {
    const ask = () => app.http.inject({ method: 'POST', url: '/api/query', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { sql: sql(t) } });
    for (let i = 0; i < 3; i++) {
      const warm = await ask();
      if (warm.statusCode !== 200) throw new Error(`${name}: ${warm.statusCode} ${warm.body}`);
    }
    perQuery[name] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      const r = await ask();
      const ms = performance.now() - t0;
      if (r.statusCode !== 200 || !r.json().rows.length) throw new Error(`${name}: ${r.statusCode} ${r.body.slice(0, 300)}`);
      perQuery[name]!.push(ms);
      all.push(ms);
    }
  }
  return { perQuery, all };
}

async function run(type: string): Promise<{ perQuery: Record<string, number[]>; all: number[]; setup: string }> {
  const backend = warehousesUnderTest.find((b) => b.type === type);
  if (!backend) throw new Error(`no backend ${type}`);
  const why = backend.unavailable();
  if (why) throw new Error(`${type}: ${why}`);
  const dir = demoProject();
  const running = await backend.start(dir);
  try {
    if (type !== 'duckdb') await (await clientFor(dir, running)).close(); // provisions the read-only user
    configure(dir, running);
    const app = await bootApp(dir);
    try {
      const t0 = performance.now();
      const engine = app.container.resolve<any>('syncEngine');
      for (const s of ['customers', 'orders', 'order_items', 'products']) {
        const rec = await engine.run(s);
        if (rec.status !== 'succeeded') throw new Error(`${type}: sync of ${s} ${rec.status}: ${rec.error}`);
      }
      const syncMs = performance.now() - t0;
      const tx = await app.container.resolve<any>('txRunner').run({ trigger: 'bench' });
      if (tx.status !== 'succeeded') throw new Error(`${type}: dbt run ${tx.status}: ${JSON.stringify(tx.error ?? tx).slice(0, 2000)}`);
      const dbtMs = performance.now() - t0 - syncMs;
      await app.warehouse.publishServingCopy();
      const rows = (await app.warehouseClient.query(`SELECT count(*) FROM ${app.warehouseClient.capabilities.qualify('main', 'fct_orders')}`, { timeoutMs: 60_000, maxRows: 1 })).rows[0]![0];
      const r = await measure(app);
      return { ...r, setup: `4 syncs ${(syncMs / 1000).toFixed(1)} s, dbt run ${(dbtMs / 1000).toFixed(1)} s, fct_orders ${rows} rows` };
    } finally {
      await app.close();
    }
  } finally {
    await running.stop();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

const runDir = makeRunDir();
process.env.BASIN_TEST_RUN_DIR = runDir;
const results: Record<string, Awaited<ReturnType<typeof run>>> = {};
try {
  for (const b of backends) {
    console.log(`${b}: loading the demo and running dbt ...`);
    results[b] = await run(b);
    console.log(`${b}: ${results[b]!.setup}`);
  }
} finally {
  await stopSharedServers(runDir);
}
const base = results.duckdb;
console.log(`\nPOST /api/query on the demo marts, ${REQUESTS} requests per query after 3 warm-ups (ms: median / p95${base ? '; ratio of medians to DuckDB' : ''})`);
for (const name of Object.keys(QUERIES)) {
  const cells = backends.map((b) => {
    const xs = results[b]!.perQuery[name]!;
    const ratio = base && b !== 'duckdb' ? ` (${(median(xs) / median(base.perQuery[name]!)).toFixed(1)}x)` : '';
    return `${b} ${median(xs).toFixed(1)} / ${p95(xs).toFixed(1)}${ratio}`;
  });
  console.log(`  ${name.padEnd(22)} ${cells.join('   ')}`);
}
console.log(
  `  ${'all queries'.padEnd(22)} ${backends.map((b) => `${b} ${median(results[b]!.all).toFixed(1)} / ${p95(results[b]!.all).toFixed(1)}${base && b !== 'duckdb' ? ` (${(median(results[b]!.all) / median(base.all)).toFixed(1)}x)` : ''}`).join('   ')}`,
);
console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (2 cores, shared with other work)`);
