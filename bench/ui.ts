/**
 * UI numbers on the demo project (not a test):
 *  - JavaScript and CSS for a first load of `/`: bytes as served and gzipped (goal: < 150 KB gzipped);
 *  - time from navigation to rendered content for /, /sources and /catalog (goal: < 300 ms), cold
 *    (first visit, empty cache) and warm (median of 5), against a baseline in the same run: navigating
 *    to a static file the same server serves (so the ratio is what the UI adds over the network path).
 *
 *   npm run build -w @basin/ui      # the vendor bundles
 *   node --conditions=development --import tsx bench/ui.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bootApp, disableAuth, rmrf, tempDir } from '@basin/test';
import { launchBrowser } from '../test/support/browser.js';
import { ensureUiBuilt } from '../test/support/ui-check.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureUiBuilt();
const demo = path.join(root, 'examples', 'demo');
if (!fs.existsSync(path.join(demo, 'data', 'uploads', 'orders'))) execFileSync(process.execPath, [path.join(demo, 'generate-data.mjs')], { stdio: 'inherit' });
const dir = path.join(tempDir('basin-bench-ui-'), 'demo');
fs.cpSync(demo, dir, { recursive: true, filter: (s) => !/\.db(\.wal)?$|\.venv|[/\\]target[/\\]?|[/\\]logs[/\\]?$/.test(s) });
disableAuth(dir);

const app = await bootApp(dir);
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const post = (p: string, body: unknown = {}) => fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify(body) });
console.log('[bench/ui] loading the demo data and building its models…');
const sources = (await (await fetch(`${base}/api/sources`)).json()) as Array<{ name: string }>;
for (const s of sources) {
  const rec = (await (await post(`/api/sources/${s.name}/sync`)).json()) as { id: string };
  for (;;) {
    const st = (await (await fetch(`${base}/api/sync/status/${rec.id}`)).json()) as { status: string };
    if (!['running', 'queued'].includes(st.status)) break;
    await new Promise((r) => setTimeout(r, 300));
  }
}
for (let i = 0; i < 600; i++) {
  const runs = (await (await fetch(`${base}/api/tx/runs?limit=5`)).json()) as { items: Array<{ status: string }> };
  if (runs.items.length && !runs.items.some((r) => ['queued', 'running'].includes(r.status))) break;
  await new Promise((r) => setTimeout(r, 500));
}

const browser = await launchBrowser();
try {
  // 1. bytes of a first load of /
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const assets = new Map<string, string>();
  page.on('response', (r) => {
    const t = r.request().resourceType();
    if (t === 'script' || t === 'stylesheet') assets.set(r.url(), t);
  });
  await page.goto(`${base}/`);
  await page.waitForSelector('h2:has-text("Rows loaded per day") ~ figure canvas, h2:has-text("Rows loaded per day") + figure canvas', { timeout: 30_000 }).catch(() => page.waitForSelector('h1:has-text("Overview")'));
  await page.waitForLoadState('networkidle');
  let raw = 0;
  let gz = 0;
  const rows: string[] = [];
  for (const url of assets.keys()) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    const g = zlib.gzipSync(body, { level: 6 }).length;
    raw += body.length;
    gz += g;
    rows.push(`  ${(g / 1024).toFixed(1).padStart(7)} KB gz ${(body.length / 1024).toFixed(1).padStart(8)} KB  ${url.replace(base, '')}`);
  }
  console.log(`\nFirst load of / : ${assets.size} JS/CSS files, ${(raw / 1024).toFixed(1)} KB as served, ${(gz / 1024).toFixed(1)} KB gzipped (goal < 150 KB gzipped)`);
  console.log(rows.sort().reverse().join('\n'));
  await ctx.close();

  // 2. navigation to rendered content
  const targets: Array<[string, string]> = [
    ['/', 'h2:has-text("Source freshness") ~ * td a, h2:has-text("Source freshness") + .table-wrap td a'],
    ['/sources', 'td a:has-text("orders")'],
    ['/catalog', 'td a:has-text("fct_orders")'],
  ];
  const measure = async (p: import('playwright-core').Page, url: string, sel: string) => {
    await p.goto(`${base}${url}`, { waitUntil: 'commit' });
    await p.waitForSelector(sel, { timeout: 30_000 });
    return p.evaluate(() => performance.now());
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const c2 = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p2 = await c2.newPage();
  const baselineRuns: number[] = [];
  for (let i = 0; i < 6; i++) {
    await p2.goto(`${base}/ui/basin.css`, { waitUntil: 'load' });
    baselineRuns.push(await p2.evaluate(() => performance.now()));
  }
  const baseline = median(baselineRuns.slice(1));
  console.log(`\nNavigation to rendered content (baseline: a static file from the same server, ${baseline.toFixed(0)} ms)`);
  for (const [url, sel] of targets) {
    const cold = await browser.newContext();
    const cp = await cold.newPage();
    const first = await measure(cp, url, sel);
    await cold.close();
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push(await measure(p2, url, sel));
    const m = median(warm);
    console.log(`  ${url.padEnd(9)} cold ${first.toFixed(0).padStart(5)} ms   warm median ${m.toFixed(0).padStart(5)} ms   ratio to baseline ${(m / baseline).toFixed(1)}x   ${m < 300 ? 'under' : 'OVER'} the 300 ms goal`);
  }
  await c2.close();
} finally {
  await browser.close();
  await app.close();
  rmrf(path.dirname(dir));
}
