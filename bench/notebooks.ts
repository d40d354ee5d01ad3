// Notebooks bench (real marimo): RSS of one notebook's marimo server (the process tree) right after it
// starts, and once an editor session has run the `explore` template's cells on the serving copy; then the
// same for 3 notebooks at once (notebooks.max_servers' default), against the RSS of the Basin process.
// Usage: node --conditions=development --import tsx bench/notebooks.ts
import fs from 'node:fs';
import WebSocket from 'ws';
import type { AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';
import type { NotebookService } from '../plugins/notebooks/src/index.js';
import { treeRssMb } from './support-rss.js';

const rows = Array.from({ length: 20000 }, (_, i) => `${i},${['paid', 'open'][i % 2]},${i % 500}`).join('\n');
const dir = makeProject({
  '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n',
  'data/shop/orders.csv': `id,status,amount\n${rows}\n`,
});
const app = await bootApp(dir);
const url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
const auth = app.container.resolve<AuthService>('auth');
const u = await auth.addUserWithPassword({ id: null, email: 'bench', ip: null }, 'bench@example.com', 'editor', 'bench password 123');
const key = auth.keys.create(u.id, 'bench', null).key;
const H = { authorization: `Bearer ${key}` };
const api = async (method: string, p: string, body?: unknown) => {
  const r = await fetch(`${url}${p}`, { method, headers: { ...H, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, text: await r.text() };
};
await api('POST', '/api/sources/shop/sync', {});
for (let i = 0; i < 200 && !fs.existsSync(app.warehouse.servingPath); i++) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 1000));
const svc = app.container.resolve<NotebookService>('notebooks');
const serverPid = (name: string) => svc['d'].servers.get(name)!.pid;

/** Opens an editor session through the proxy and runs every cell; returns the open socket. */
async function run(name: string): Promise<WebSocket> {
  const page = await api('GET', `/notebooks/${name}/`);
  const token = /marimo-server-token data-token="([^"]+)"/.exec(page.text)![1]!;
  const sid = `b${Date.now()}${name}`;
  const ws = new WebSocket(`${url.replace('http', 'ws')}/notebooks/${name}/ws?session_id=${sid}`, { headers: H });
  const done = new Promise<void>((resolve) => ws.on('message', (m) => JSON.parse(m.toString()).op === 'completed-run' && resolve()));
  await new Promise((r) => ws.once('open', r));
  await new Promise((r) => setTimeout(r, 500));
  await fetch(`${url}/notebooks/${name}/api/kernel/instantiate`, { method: 'POST', headers: { ...H, 'content-type': 'application/json', 'marimo-session-id': sid, 'marimo-server-token': token }, body: JSON.stringify({ objectIds: [], values: [], autoRun: true }) });
  await done;
  return ws;
}

const names = ['nb1', 'nb2', 'nb3'];
for (const n of names) await api('POST', '/api/notebooks', { name: n, template: 'explore' });
let t0 = performance.now();
await api('POST', '/api/notebooks/nb1/lock');
const startMs = performance.now() - t0;
const idle = treeRssMb(serverPid('nb1'));
const ws1 = await run('nb1');
const open = treeRssMb(serverPid('nb1'));
const sockets = [ws1];
for (const n of names.slice(1)) {
  await api('POST', `/api/notebooks/${n}/lock`);
  sockets.push(await run(n));
}
const all = names.reduce((s, n) => s + treeRssMb(serverPid(n)), 0);
const basin = process.memoryUsage().rss / 1024 / 1024; // Basin alone (its tree would include the marimo servers)
for (const s of sockets) s.close();
for (const n of names) await api('POST', `/api/notebooks/${n}/release`);
await app.close();
console.log(`marimo server start (lock to ready)            ${(startMs / 1000).toFixed(1)} s`);
console.log(`marimo server RSS, started, no session         ${idle.toFixed(0)} MB`);
console.log(`marimo server RSS, explore template run        ${open.toFixed(0)} MB`);
console.log(`3 notebooks open and run (max_servers default) ${all.toFixed(0)} MB (${(all / 3).toFixed(0)} MB each)`);
console.log(`Basin process itself (for scale)               ${basin.toFixed(0)} MB (ratio per notebook ${(all / 3 / basin).toFixed(2)})`);
