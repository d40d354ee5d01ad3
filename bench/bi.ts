// Dashboards bench (real Superset): start time (first start with migrations, init, warehouse registration
// and the dashboard provisioning; then a restart of the same project), Superset's RSS (gunicorn master +
// worker) idle and after rendering the demo-like dashboard's chart queries, and the latency Basin's /bi
// proxy adds: the median of GET /bi/api/v1/me/ through Basin against Superset directly with the same
// signed-in session and headers, interleaved in the same run.
// Usage: node --conditions=development --import tsx bench/bi.ts [requests=300]
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';
import type { SupersetSupervisor } from '../plugins/bi/src/index.js';
import { median, treeRssMb } from './support-rss.js';

const N = Number(process.argv[2] ?? 300);
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
const rows = Array.from({ length: 5000 }, (_, i) => `${i},2026-0${1 + (i % 9)}-1${i % 9},${['web', 'mobile', 'store'][i % 3]},${(i % 97) + 0.5}`).join('\n');
const dashboard = `title: Bench\nslug: bench\ncharts:\n  - name: Revenue per day and channel\n    dataset: raw_shop.shop\n    params:\n      viz_type: echarts_timeseries_bar\n      x_axis: order_date\n      time_grain_sqla: P1D\n      groupby: [channel]\n      metrics: [{ expressionType: SQL, sqlExpression: SUM(amount), label: Revenue }]\n`;

const port = await freePort();
const dir = makeProject({
  '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n',
  'data/shop/orders.csv': `id,order_date,channel,amount\n${rows}\n`,
  'dashboards/bench.yml': dashboard,
});
const f = path.join(dir, '.basin/project.yml');
fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('  port: 8800\n', `  port: 8800\n  bi_port: ${port}\n`));

async function boot() {
  const app = await bootApp(dir);
  const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  return { app, url, sup: app.container.resolve<SupersetSupervisor>('biSupervisor') };
}

let { app, url, sup } = await boot();
const auth = app.container.resolve<AuthService>('auth');
const user = await auth.addUserWithPassword({ id: null, email: 'bench', ip: null }, 'bench@example.com', 'admin', 'bench password 123');
const key = auth.keys.create(user.id, 'bench', null).key;
const sync = await fetch(`${url}/api/sources/shop/sync`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
if (sync.status !== 202) throw new Error(`sync: ${sync.status}`);
for (let i = 0; i < 200 && !fs.existsSync(app.warehouse.servingPath); i++) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 1000));

let t0 = performance.now();
await sup.start();
const firstStart = performance.now() - t0;
const idleRss = treeRssMb(sup.pid!);

// the chart's data through the proxy, as a browser on the dashboard would ask for it
const me = await fetch(`${url}/bi/api/v1/me/`, { headers: { authorization: `Bearer ${key}` } });
const cookie = me.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const charts = (await (await fetch(`${url}/bi/api/v1/chart/`, { headers: { authorization: `Bearer ${key}`, cookie } })).json()) as { result: Array<{ id: number }> };
for (const c of charts.result) await (await fetch(`${url}/bi/api/v1/chart/${c.id}/data/`, { headers: { authorization: `Bearer ${key}`, cookie } })).arrayBuffer();
const busyRss = treeRssMb(sup.pid!);

// proxy latency: same session, same headers Basin adds, interleaved
const auth2 = app.container.resolve<AuthService>('auth');
const password = auth2.companions.password(user.id, 'superset');
const direct = { cookie, 'x-basin-proxy-secret': sup.proxySecret, 'x-basin-user': 'bench@example.com', 'x-basin-role': 'Admin', 'x-basin-password': password };
const through = { authorization: `Bearer ${key}`, cookie };
const viaProxy: number[] = [];
const viaDirect: number[] = [];
const once = async (u: string, h: Record<string, string>) => {
  const s = performance.now();
  const r = await fetch(u, { headers: h });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${u}: ${r.status}`);
  return performance.now() - s;
};
for (let i = 0; i < 20; i++) {
  await once(`${url}/bi/api/v1/me/`, through);
  await once(`http://127.0.0.1:${port}/bi/api/v1/me/`, direct);
}
for (let i = 0; i < N; i++) {
  viaProxy.push(await once(`${url}/bi/api/v1/me/`, through));
  viaDirect.push(await once(`http://127.0.0.1:${port}/bi/api/v1/me/`, direct));
}

await app.close();
({ app, url, sup } = await boot());
t0 = performance.now();
await sup.start();
const secondStart = performance.now() - t0;
await app.close();

const p = median(viaProxy);
const d = median(viaDirect);
console.log(`Superset start (first: migrations, init, warehouse, dashboard)  ${(firstStart / 1000).toFixed(1)} s`);
console.log(`Superset start (same project again)                             ${(secondStart / 1000).toFixed(1)} s`);
console.log(`Superset RSS idle after start                                   ${idleRss.toFixed(0)} MB`);
console.log(`Superset RSS after the dashboard's chart queries                ${busyRss.toFixed(0)} MB`);
console.log(`GET /bi/api/v1/me/ median, ${N} each: through Basin ${p.toFixed(2)} ms, direct ${d.toFixed(2)} ms`);
console.log(`  proxy adds ${(p - d).toFixed(2)} ms (ratio ${(p / d).toFixed(2)})`);
