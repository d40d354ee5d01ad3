/**
 * /ws fan-out benchmark: N connected WebSocket clients receiving M bus events.
 * Reports delivery rate and the server's RSS; the clients run in a child process so the RSS is the server's.
 * Baseline (same process, same M): one client. Ratio = per-delivery rate with N clients / with one.
 *
 *   node --conditions=development --import tsx bench/ws.ts [clients=200] [events=1000]
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ManualClock, type BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject, rmrf } from '@basin/test';
import realtime from '@basin/plugin-realtime';
import WebSocket from 'ws';

const self = fileURLToPath(import.meta.url);

async function clientsMain(url: string, n: number, expect: number): Promise<void> {
  const counts = new Array<number>(n).fill(0);
  let finished = 0;
  const sockets: WebSocket[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(url);
        sockets.push(ws);
        ws.on('message', () => {
          if (++counts[i]! === expect && ++finished === n) process.send!({ kind: 'done', received: counts.reduce((a, b) => a + b, 0) });
        });
        ws.once('open', () => resolve());
        ws.once('error', reject);
      }),
    ),
  );
  process.send!({ kind: 'ready' });
  process.on('message', (m: { kind: string }) => {
    if (m.kind === 'exit') {
      for (const s of sockets) s.terminate();
      process.exit(0);
    }
  });
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

async function round(app: BasinApp, url: string, clients: number, events: number): Promise<{ seconds: number; deliveries: number; rssConnected: number; rssPeak: number }> {
  const child = fork(self, ['--clients', url, String(clients), String(events)], { execArgv: ['--conditions=development', '--import', 'tsx'] });
  const msg = (kind: string) => new Promise<Record<string, number>>((resolve) => child.on('message', (m: { kind: string }) => m.kind === kind && resolve(m as never)));
  await msg('ready');
  const rssConnected = process.memoryUsage().rss;
  let rssPeak = rssConnected;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
  const done = msg('done');
  const t0 = performance.now();
  for (let i = 0; i < events; i++) {
    void app.events.emit('sync_completed', { source: `source_${i % 7}`, sync_id: `sync_${i}`, rows: i, tables: [{ name: 't', schema: 'raw', rows: i }], duration_seconds: 1.5, trigger: 'schedule', schedule: 'nightly' } as never);
    if (i % 50 === 49) await new Promise((r) => setImmediate(r));
  }
  const { received } = await done;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  child.send({ kind: 'exit' });
  await new Promise((r) => child.once('exit', r));
  return { seconds, deliveries: received!, rssConnected, rssPeak };
}

async function main(): Promise<void> {
  const clients = Number(process.argv[2] ?? 200);
  const events = Number(process.argv[3] ?? 1000);
  const dir = makeProject();
  disableAuth(dir);
  const app = await bootApp(dir, { clock: new ManualClock(), plugins: [realtime] });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `${base.replace(/^http/, 'ws')}/ws`;
  const rssBoot = process.memoryUsage().rss;
  try {
    const baseline = await round(app, url, 1, events);
    const full = await round(app, url, clients, events);
    const rate = (r: typeof full) => r.deliveries / r.seconds;
    console.log(`size: ${clients} clients x ${events} events (server RSS after boot ${mb(rssBoot)})`);
    console.log(`baseline  1 client : ${baseline.deliveries} deliveries in ${baseline.seconds.toFixed(3)} s = ${Math.round(rate(baseline))} msg/s`);
    console.log(`${String(clients).padStart(4)} clients       : ${full.deliveries} deliveries in ${full.seconds.toFixed(3)} s = ${Math.round(rate(full))} msg/s (all delivered: ${full.deliveries === clients * events})`);
    console.log(`ratio (per-delivery rate, ${clients} clients / 1 client): ${(rate(full) / rate(baseline)).toFixed(2)}x`);
    console.log(`server RSS: ${mb(full.rssConnected)} with ${clients} connected, peak ${mb(full.rssPeak)} while sending (+${mb(full.rssPeak - rssBoot)} over boot)`);
  } finally {
    await app.close();
    rmrf(dir);
  }
}

if (process.argv[2] === '--clients') await clientsMain(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
else await main();
