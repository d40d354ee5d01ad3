// Issue 22 item 5: syncs on `basin worker` processes through a pg-boss queue in PostgreSQL. The server
// (this test process) queues; two worker child processes run the syncs of two sources at once; the
// server's history records both; one sync of a source at a time (the queue's singleton key); a worker
// killed mid-sync leaves the previous data in the PostgreSQL warehouse and the job fails visibly.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import type { SyncEngine, SyncRecord } from '@basin/plugin-sync/contract';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { postgresBinDir } from '../../../test/support/postgres.js';
import { sharedPostgres, type SharedPostgres } from '../../../test/support/shared-postgres.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const why = postgresBinDir() ? null : 'PostgreSQL server binaries are not installed (node scripts/setup.mjs postgresql)';
const JOB_TIMEOUT = 8;

/** An API whose answers wait until released: a source's sync is "running" for as long as the test wants. */
class HeldApi {
  readonly arrived = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly released = new Set<string>();
  private readonly listeners: Array<() => void> = [];
  server = http.createServer((req, res) => {
    const key = (req.url ?? '/').split('?')[0]!.slice(1);
    this.arrived.set(key, (this.arrived.get(key) ?? 0) + 1);
    for (const l of this.listeners.splice(0)) l();
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i + 1, source: key, n: this.arrived.get(key) }))));
    };
    if (this.released.has(key)) answer();
    else this.waiting.set(key, [...(this.waiting.get(key) ?? []), answer]);
  });
  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as AddressInfo).port;
  }
  hold(key: string): void {
    this.released.delete(key);
  }
  release(key: string): void {
    this.released.add(key);
    for (const a of this.waiting.get(key)?.splice(0) ?? []) a();
  }
  async until(pred: () => boolean, what: string, ms = 60_000): Promise<void> {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
      await new Promise<void>((r) => {
        this.listeners.push(r);
        setTimeout(r, 200);
      });
    }
  }
}

interface Worker {
  child: ChildProcess;
  out: string;
  name: string;
}

function startWorker(dir: string, name: string): Worker {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), 'worker', '--project', dir, '--name', name], {
    cwd: root,
    env: { ...process.env, BASIN_DEV: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const w: Worker = { child, out: '', name };
  child.stdout!.on('data', (d) => (w.out += d));
  child.stderr!.on('data', (d) => (w.out += d));
  return w;
}

async function waitFor(pred: () => boolean, what: string, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sync workers through the PostgreSQL job queue', { skip: why ?? false }, () => {
  let pg: SharedPostgres;
  let dir: string;
  let app: BasinApp;
  let engine: SyncEngine;
  let api: HeldApi;
  let database: string;
  const workers: Worker[] = [];
  let betaTable = '';

  before(async () => {
    pg = await sharedPostgres();
    const suffix = crypto.randomBytes(4).toString('hex');
    database = `workers_${suffix}`;
    const user = `workers_${suffix}_w`;
    pg.psql(`CREATE ROLE "${user}" LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE "${database}" OWNER "${user}";`);
    api = new HeldApi();
    const port = await api.listen();
    const source = (name: string) => `  - name: ${name}\n    type: rest_api\n    rest_api:\n      base_url: http://127.0.0.1:${port}\n      endpoints: [{ path: /${name} }]\n      auth_type: none\n      max_retries: 0\n`;
    dir = makeProject({
      '.basin/sources.yml': `version: "1.0"\nsources:\n${source('alpha')}${source('beta')}`,
      '.env': `BASIN_WAREHOUSE_PASSWORD=writer-secret\nBASIN_WAREHOUSE_READ_PASSWORD=reader-secret\n`,
    });
    disableAuth(dir);
    fs.appendFileSync(
      path.join(dir, '.basin', 'project.yml'),
      `\nwarehouse:\n  type: postgres\n  host: ${pg.host}\n  port: ${pg.port}\n  database: ${database}\n  user: ${user}\n  read_user: ${user}_r\n` +
        `workers:\n  enabled: true\n  job_timeout_seconds: ${JOB_TIMEOUT}\n  supervise_interval_seconds: 1\n`,
    );
    app = await bootApp(dir);
    engine = app.container.resolve<SyncEngine>('syncEngine');
    workers.push(startWorker(dir, 'w1'), startWorker(dir, 'w2'));
    await waitFor(() => workers.every((w) => /takes sync jobs/.test(w.out) || w.child.exitCode !== null), 'both workers to start');
    for (const w of workers) assert.match(w.out, /takes sync jobs/, w.out);
  });

  after(async () => {
    api?.release('alpha');
    api?.release('beta');
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => (w.child.exitCode === null && w.child.signalCode === null ? new Promise((r) => w.child.once('exit', r)) : null)));
    await app?.close();
    api?.server.close();
  });

  const history = async (source: string): Promise<SyncRecord[]> => {
    const res = await app.http.inject({ method: 'GET', url: `/api/sources/${source}/details` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    return body.sync_history?.items ?? body.sync_history ?? body.history;
  };
  const count = (table: string) => Number(pg.psql(`SELECT count(*) FROM ${table}`, database).trim());

  test('two workers sync two sources at once; the server records both', async () => {
    api.hold('alpha');
    api.hold('beta');
    const a = engine.start('alpha', { trigger: 'api' });
    const b = engine.start('beta', { trigger: 'api' });
    // each API answers only once both syncs asked: only two syncs running at once get here
    await api.until(() => api.arrived.has('alpha') && api.arrived.has('beta'), 'both sources to be read at once');
    api.release('alpha');
    api.release('beta');
    const [ra, rb] = await Promise.all([engine.wait(a.id), engine.wait(b.id)]);
    assert.equal(ra.status, 'succeeded', ra.error ?? '');
    assert.equal(rb.status, 'succeeded', rb.error ?? '');
    const [ha, hb] = [(await history('alpha')).find((r) => r.id === a.id)!, (await history('beta')).find((r) => r.id === b.id)!];
    assert.equal(ha.status, 'succeeded');
    assert.equal(hb.status, 'succeeded');
    assert.equal(ha.rows, 50);
    // the runs overlap in the history (the workers' own start and end times)
    assert.ok(ha.started_at < hb.finished_at! && hb.started_at < ha.finished_at!, JSON.stringify({ ha, hb }));
    // each worker ran one of them
    const ran = workers.map((w) => (w.out.match(/: succeeded/g) ?? []).length);
    assert.deepEqual(ran, [1, 1], workers.map((w) => w.out).join('\n---\n'));
    // the data is in the PostgreSQL warehouse
    assert.equal(count(tableOf(ra)), 50);
    assert.equal(count(tableOf(rb)), 50);
    betaTable = tableOf(rb);
  });

  test('one sync of a source at a time: the server refuses a second while a worker runs it', async () => {
    api.hold('alpha');
    const before = api.arrived.get('alpha') ?? 0;
    const a = engine.start('alpha', { trigger: 'api' });
    await api.until(() => (api.arrived.get('alpha') ?? 0) > before, 'the alpha sync to read');
    const again = await app.http.inject({ method: 'POST', url: '/api/sources/alpha/sync', headers: { 'x-requested-with': 'XMLHttpRequest' } });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().error.code, 'sync_in_progress');
    api.release('alpha');
    assert.equal((await engine.wait(a.id)).status, 'succeeded');
    assert.equal(api.arrived.get('alpha'), before + 1, 'alpha was read once');
  });

  test('a worker killed mid-sync: the previous data stays, the sync fails visibly', async () => {
    const rowsBefore = count(betaTable);
    api.hold('beta');
    const seen = api.arrived.get('beta') ?? 0;
    const b = engine.start('beta', { trigger: 'api' });
    await api.until(() => (api.arrived.get('beta') ?? 0) > seen, 'the beta sync to read');
    const runner = workers.find((w) => w.out.includes(`sync ${b.id} of beta: started`));
    assert.ok(runner, 'a worker logged taking the job');
    runner!.child.kill('SIGKILL');
    await new Promise((r) => runner!.child.once('exit', r));
    const r = await engine.wait(b.id);
    assert.equal(r.status, 'failed');
    assert.match(r.error ?? '', /stopped or took longer than workers\.job_timeout_seconds/);
    assert.match(r.error ?? '', /previous data was kept/);
    assert.equal(count(betaTable), rowsBefore);
    const h = (await history('beta')).find((x) => x.id === b.id)!;
    assert.equal(h.status, 'failed');
  });
});

function tableOf(r: SyncRecord): string {
  return `"${r.tables[0]!.schema}"."${r.tables[0]!.name}"`;
}
