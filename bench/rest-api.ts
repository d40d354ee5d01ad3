// Benchmark (not a test): records/s through the rest_api source against a local HTTP API serving
// N JSON records in pages of 1,000 (default N = 1,000,000), compared in the same run with a bare
// fetch + JSON.parse loop over the same pages (the floor any HTTP source pays), and, when the sync
// engine is available, a full `basin sync` of the same API into DuckDB.
//   node --conditions=development --import tsx bench/rest-api.ts [records] [--no-sync]
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PAGE = 1000;
const TOKEN = 'bench-token-0123456789';

// ---- the API server (runs in a child process so it does not share the measured event loop)
function serve(total: number): void {
  const pages: string[] = [];
  const base = Date.UTC(2024, 0, 1);
  const totalPages = Math.ceil(total / PAGE);
  for (let p = 0; p < totalPages; p++) {
    const rows = [];
    for (let i = p * PAGE; i < Math.min(total, (p + 1) * PAGE); i++) {
      rows.push({ id: i + 1, name: `customer ${i + 1}`, email: `c${i + 1}@example.com`, created_at: new Date(base + i * 60_000).toISOString(), amount: ((i * 37) % 100_000) / 100, active: i % 3 === 0, plan: ['free', 'pro', 'team'][i % 3] });
    }
    pages.push(JSON.stringify({ data: rows, meta: { page: p + 1, total_pages: totalPages, total } }));
  }
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end('{"error":"unauthorized"}');
      return;
    }
    const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? 1);
    const body = pages[page - 1] ?? JSON.stringify({ data: [], meta: { page, total_pages: totalPages, total } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, bytes: pages.reduce((n, s) => n + s.length, 0) }));
}

if (process.argv.includes('--serve')) {
  serve(Number(process.argv[process.argv.indexOf('--serve') + 1]));
} else {
  await main();
}

async function startServer(total: number): Promise<{ url: string; bytes: number; child: ChildProcess }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(total)], { execArgv: ['--conditions=development', '--import', 'tsx'], stdio: 'inherit' });
  const { port, bytes } = await new Promise<{ port: number; bytes: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; bytes: number }));
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}/v1`, bytes, child };
}

async function main(): Promise<void> {
  const total = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1_000_000);
  const withSync = !process.argv.includes('--no-sync');
  const { url, bytes, child } = await startServer(total);
  console.log(`rest_api benchmark: ${total.toLocaleString()} records, pages of ${PAGE} (${Math.round(bytes / 1048576)} MB of JSON)`);
  const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
  try {
    // records per CPU-second of this process: a load-independent view on a shared machine
    const cpuRate = (n: number, start: NodeJS.CpuUsage) => {
      const u = process.cpuUsage(start);
      return Math.round(n / ((u.user + u.system) / 1e6)).toLocaleString();
    };
    // 1. baseline: fetch + JSON.parse page by page
    let cpu = process.cpuUsage();
    let t = performance.now();
    let n = 0;
    for (let page = 1; ; page++) {
      const res = await fetch(`${url}/customers?per_page=${PAGE}&page=${page}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const body = JSON.parse(await res.text()) as { data: unknown[]; meta: { total_pages: number } };
      n += body.data.length;
      if (page >= body.meta.total_pages) break;
    }
    const baseMs = performance.now() - t;
    if (n !== total) throw new Error(`baseline read ${n} records`);
    console.log(`  baseline fetch+parse : ${(baseMs / 1000).toFixed(2)} s  ${rate(n, baseMs).toLocaleString()} records/s  (${cpuRate(n, cpu)} records/CPU-s)`);

    // 2. the rest_api source's read(): auth, pagination, selection, batching
    const { default: restApi } = await import('@basin/source-rest-api');
    const { createTestContext } = await import('@basin/sdk/testkit');
    const config = {
      base_url: url,
      auth_token_env: 'BENCH_TOKEN',
      endpoints: [{ path: 'customers', params: { per_page: PAGE }, data_selector: 'data', paginator: { type: 'page_number', total_pages_path: 'meta.total_pages' } }],
    };
    const ctx = createTestContext(restApi, config, { name: 'bench_api', env: { BENCH_TOKEN: TOKEN } });
    cpu = process.cpuUsage();
    t = performance.now();
    n = 0;
    let batches = 0;
    for await (const item of restApi.read(ctx, [{ name: 'customers' }], {})) {
      if (item.kind === 'records') {
        n += item.records.length;
        batches++;
      }
    }
    const readMs = performance.now() - t;
    if (n !== total) throw new Error(`read() yielded ${n} records`);
    console.log(`  rest_api read()      : ${(readMs / 1000).toFixed(2)} s  ${rate(n, readMs).toLocaleString()} records/s  (${cpuRate(n, cpu)} records/CPU-s; ${batches} batches; ${(readMs / baseMs).toFixed(2)}x baseline)`);

    // 3. a full sync into DuckDB through the sync engine, when it is there
    if (withSync) await fullSync(url, total, baseMs);
  } finally {
    child.kill();
  }
}

/** CPU seconds of this process's threads by name (main thread = the pid; DuckDB's and libuv's workers), from /proc (Linux) */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of fs.readdirSync('/proc/self/task')) {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = tid === String(process.pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    }
  } catch {
    // not Linux: no breakdown
  }
  return out;
}

async function fullSync(url: string, total: number, baseMs: number): Promise<void> {
  let mods;
  try {
    mods = await Promise.all([import('@basin/plugin-sources'), import('@basin/plugin-sync'), import('@basin/test')]);
  } catch (err) {
    console.log(`  full sync            : skipped (${(err as Error).message.split('\n')[0]})`);
    return;
  }
  const [{ default: sourcesPlugin }, { default: syncPlugin }, { bootApp, disableAuth, makeProject }] = mods;
  const dir = makeProject({
    '.basin/sources.yml': [
      'version: "1.0"',
      'sources:',
      '  - name: bench_api',
      '    type: rest_api',
      '    rest_api:',
      `      base_url: ${url}`,
      '      auth_token_env: BENCH_TOKEN',
      '      endpoints:',
      '        - path: customers',
      `          params: { per_page: ${PAGE} }`,
      '          data_selector: data',
      '          paginator: { type: page_number, total_pages_path: meta.total_pages }',
      '',
    ].join('\n'),
    '.env': `BENCH_TOKEN=${TOKEN}\n`,
  });
  disableAuth(dir);
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  try {
    const engine = app.container.resolve<{ run(s: string, o?: object): Promise<{ status: string; rows: number; error: string | null }> }>('syncEngine');
    const threadsBefore = threadCpu();
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const cpu = process.cpuUsage();
    const t = performance.now();
    const rec = await engine.run('bench_api', { trigger: 'cli' });
    const used = process.cpuUsage(cpu);
    const ms = performance.now() - t;
    clearInterval(sampler);
    const threads = [...threadCpu()].map(([name, s]) => [name, s - (threadsBefore.get(name) ?? 0)] as const).filter(([, s]) => s >= 0.05);
    if (rec.status !== 'succeeded') throw new Error(`sync ${rec.status}: ${rec.error}`);
    console.log(`  full sync (DuckDB)   : ${(ms / 1000).toFixed(2)} s  ${Math.round(rec.rows / (ms / 1000)).toLocaleString()} records/s  (${Math.round(rec.rows / ((used.user + used.system) / 1e6)).toLocaleString()} records/CPU-s; ${rec.rows.toLocaleString()} rows; ${(ms / baseMs).toFixed(2)}x baseline)`);
    if (threads.length) console.log(`    CPU by thread: ${threads.map(([name, s]) => `${name} ${s.toFixed(2)} s`).join(', ')}`);
    console.log(`    RSS: ${Math.round(rssBefore / 1048576)} MB before, peak ${Math.round(peakRss / 1048576)} MB during the sync (sampled every 50 ms)`);
    if (rec.rows !== total) console.log(`  WARNING: loaded ${rec.rows} rows, expected ${total}`);
  } finally {
    await app.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}
