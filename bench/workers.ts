// Sync workers (issue 22 item 5): four sources whose API answers after a fixed delay (a slow vendor
// API, the case workers are for), synced through the job queue by one worker, then by two workers, in
// the same run against one PostgreSQL (warehouse and queue). Prints both wall times and the ratio.
// Not a test.   node --conditions=development --import tsx bench/workers.ts [delay_ms=3000]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SyncEngine } from '@basin/plugin-sync/contract';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { startPostgres } from '../test/support/postgres.js';

const delayMs = Number(process.argv[2] ?? 3000);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['s1', 's2', 's3', 's4'];

const api = http.createServer((req, res) => {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ id: i, path: req.url, v: i * 2 }))));
  }, delayMs);
});
await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
const port = (api.address() as AddressInfo).port;

const pg = await startPostgres();
pg.psql(`CREATE ROLE basin LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE basin OWNER basin;`);

async function run(workerCount: number): Promise<number> {
  const source = (n: string) => `  - name: ${n}\n    type: rest_api\n    rest_api:\n      base_url: http://127.0.0.1:${port}\n      endpoints: [{ path: /${n} }]\n      auth_type: none\n      max_retries: 0\n`;
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n${SOURCES.map(source).join('')}`,
    '.env': 'BASIN_WAREHOUSE_PASSWORD=writer-secret\nBASIN_WAREHOUSE_READ_PASSWORD=reader-secret\n',
  });
  disableAuth(dir);
  fs.appendFileSync(
    path.join(dir, '.basin', 'project.yml'),
    `\nwarehouse:\n  type: postgres\n  host: ${pg.host}\n  port: ${pg.port}\n  database: basin\n  user: basin\n  read_user: basin_reader\n  schema_prefix: w${workerCount}_\n` +
      `workers:\n  enabled: true\n  queue_schema: queue_w${workerCount}\n`,
  );
  const app = await bootApp(dir);
  const engine = app.container.resolve<SyncEngine>('syncEngine');
  const children: ChildProcess[] = [];
  try {
    await Promise.all(
      Array.from({ length: workerCount }, (_, i) => {
        const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), 'worker', '--project', dir, '--name', `w${i}`], {
          cwd: root,
          env: { ...process.env, BASIN_DEV: '1' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        children.push(child);
        let out = '';
        return new Promise<void>((resolve, reject) => {
          child.stdout!.on('data', (d) => ((out += d), /takes sync jobs/.test(out) && resolve()));
          child.once('exit', (c) => reject(new Error(`worker exited ${c}: ${out}`)));
        });
      }),
    );
    const t0 = performance.now();
    const records = await Promise.all(SOURCES.map((s) => engine.run(s, { trigger: 'api' })));
    const ms = performance.now() - t0;
    const bad = records.filter((r) => r.status !== 'succeeded');
    if (bad.length) throw new Error(`syncs failed: ${bad.map((r) => r.error).join('; ')}`);
    return ms;
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    await app.close();
  }
}

try {
  const one = await run(1);
  const two = await run(2);
  console.log(`four sources, API delay ${delayMs} ms: one worker ${(one / 1000).toFixed(2)} s, two workers ${(two / 1000).toFixed(2)} s; speed-up ${(one / two).toFixed(2)}x (two / one = ${(two / one).toFixed(2)})`);
} finally {
  api.close();
  await pg.stop();
}
