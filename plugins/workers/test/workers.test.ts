// Issue 22 item 5: syncs on `basin worker` processes through a pg-boss queue in PostgreSQL. The server
// (this test process) queues; two worker child processes run the syncs of two sources at once; the
// server's history records both; one sync of a source at a time at the queue, also against a second
// sender and across a server restart; the workers' progress reaches `/ws` through the server; a cancel
// stops a worker's sync mid-load with the previous tables and cursor kept; a worker killed mid-sync
// leaves the previous data in the PostgreSQL warehouse and the job fails visibly.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import type { BasinApp } from '@basin/core';
import type { SyncEngine, SyncJob, SyncRecord } from '@basin/plugin-sync/contract';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import PgBoss from 'pg-boss';
import { SYNC_QUEUE } from '../src/contract.js';
import { RunControl } from '../src/run-control.js';
import { lostSetupRace } from '../src/queue.js';
import { postgresBinDir } from '../../../test/support/postgres.js';
import { sharedPostgres, type SharedPostgres } from '../../../test/support/shared-postgres.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const why = postgresBinDir() ? null : 'PostgreSQL server binaries are not installed (node scripts/setup.mjs postgresql)';
const JOB_TIMEOUT = 12;
const PAGE_ROWS = 50;

/**
 * An API whose answers wait until released, so a source's sync is "running" for as long as the test
 * wants. `hold('alpha')` holds every request of /alpha; `hold('gamma:2')` only its second page. It
 * counts the requests of each path in flight at once: a second sync of a source running beside the
 * first would show as two. /gamma pages (page_number, `since` cursor): two pages of 50 rows, then none.
 */
class HeldApi {
  readonly arrived = new Map<string, number>();
  readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();
  readonly requests: Array<{ key: string; page: number; since: number | null }> = [];
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly held = new Set<string>();
  private readonly listeners: Array<() => void> = [];
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = url.pathname.slice(1);
    const page = Number(url.searchParams.get('page') ?? 1);
    const since = url.searchParams.has('since') ? Number(url.searchParams.get('since')) : null;
    this.requests.push({ key, page, since });
    this.arrived.set(key, (this.arrived.get(key) ?? 0) + 1);
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    this.maxInFlight.set(key, Math.max(this.maxInFlight.get(key) ?? 0, this.inFlight.get(key)!));
    let open = true;
    const done = () => {
      if (!open) return;
      open = false;
      this.inFlight.set(key, this.inFlight.get(key)! - 1);
      this.notify();
    };
    res.on('close', done);
    this.notify();
    const answer = () => {
      if (!open) return;
      let rows: unknown[];
      if (key === 'gamma') {
        const first = (since ?? 0) + (page - 1) * PAGE_ROWS + 1;
        rows = page > 2 ? [] : Array.from({ length: PAGE_ROWS }, (_, i) => ({ id: first + i, page }));
      } else {
        rows = Array.from({ length: PAGE_ROWS }, (_, i) => ({ id: i + 1, source: key, n: this.arrived.get(key) }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(rows));
    };
    const holdKey = this.held.has(key) ? key : this.held.has(`${key}:${page}`) ? `${key}:${page}` : null;
    if (!holdKey) answer();
    else this.waiting.set(holdKey, [...(this.waiting.get(holdKey) ?? []), answer]);
  });
  private notify(): void {
    for (const l of this.listeners.splice(0)) l();
  }
  async listen(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as AddressInfo).port;
  }
  hold(key: string): void {
    this.held.add(key);
  }
  release(key: string): void {
    this.held.delete(key);
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
    // one 50-row page is one loaded batch: a sync reports progress (and sees a cancel) page by page
    env: { ...process.env, BASIN_DEV: '1', BASIN_SYNC_BATCH_ROWS: String(PAGE_ROWS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const w: Worker = { child, out: '', name };
  child.stdout!.on('data', (d) => (w.out += d));
  child.stderr!.on('data', (d) => (w.out += d));
  return w;
}

async function waitFor(pred: () => boolean | Promise<boolean>, what: string, ms = 90_000, detail?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}${detail ? `\n${detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Msg {
  type: string;
  [k: string]: unknown;
}

describe('sync workers through the PostgreSQL job queue', { skip: why ?? false }, () => {
  let pg: SharedPostgres;
  let dir: string;
  let app: BasinApp;
  let engine: SyncEngine;
  let api: HeldApi;
  let database: string;
  let user: string;
  const workers: Worker[] = [];
  let betaTable = '';
  let gammaTable = '';

  const boot = async () => {
    app = await bootApp(dir);
    engine = app.container.resolve<SyncEngine>('syncEngine');
  };

  before(async () => {
    pg = await sharedPostgres();
    const suffix = crypto.randomBytes(4).toString('hex');
    database = `workers_${suffix}`;
    user = `workers_${suffix}_w`;
    pg.psql(`CREATE ROLE "${user}" LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE "${database}" OWNER "${user}";`);
    api = new HeldApi();
    const port = await api.listen();
    const source = (name: string, extra = '') => `  - name: ${name}\n    type: rest_api\n    rest_api:\n      base_url: http://127.0.0.1:${port}\n      endpoints: [{ path: /${name}${extra} }]\n      auth_type: none\n      max_retries: 0\n`;
    const gamma = source('gamma', ', paginator: { type: page_number, page_param: page, start_page: 1 }, cursor_field: id, cursor_param: since') + `      batch_size: ${PAGE_ROWS}\n`;
    dir = makeProject({
      '.basin/sources.yml': `version: "1.0"\nsources:\n${source('alpha')}${source('beta')}${gamma}`,
      '.env': `BASIN_WAREHOUSE_PASSWORD=writer-secret\nBASIN_WAREHOUSE_READ_PASSWORD=reader-secret\n`,
    });
    disableAuth(dir);
    // no dbt after each sync: these tests are about the queue (dbt on the PostgreSQL backend, and a
    // full-refresh swap under dbt's views, are tested in test/warehouse-backends.test.ts)
    const yml = path.join(dir, '.basin', 'project.yml');
    fs.writeFileSync(yml, fs.readFileSync(yml, 'utf8').replace(/^platform:\n/m, 'platform:\n  auto_tx: false\n'));
    fs.appendFileSync(
      path.join(dir, '.basin', 'project.yml'),
      `\nwarehouse:\n  type: postgres\n  host: ${pg.host}\n  port: ${pg.port}\n  database: ${database}\n  user: ${user}\n  read_user: ${user}_r\n` +
        `workers:\n  enabled: true\n  job_timeout_seconds: ${JOB_TIMEOUT}\n  supervise_interval_seconds: 1\n`,
    );
    await boot();
    workers.push(startWorker(dir, 'w1'), startWorker(dir, 'w2'));
    // two tsx-compiled processes booting beside another test file (and, in a full run, Trino's start):
    // a fresh clone's run once took over 90 s here; the message carries what they printed
    await waitFor(() => workers.every((w) => /takes sync jobs/.test(w.out) || w.child.exitCode !== null), 'both workers to start', 180_000, () =>
      workers.map((w) => `${w.name} (exit ${w.child.exitCode}): ${w.out.trim().slice(-800) || '(nothing printed)'}`).join('\n'),
    );
    for (const w of workers) assert.match(w.out, /takes sync jobs/, w.out);
  });

  after(async () => {
    for (const k of ['alpha', 'beta', 'gamma', 'gamma:2']) api?.release(k);
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
  const queueJobs = (source: string) =>
    pg
      .psql(`SELECT state FROM basin_queue.job WHERE name = '${SYNC_QUEUE}' AND singleton_key = '${source}' ORDER BY created_on`, database)
      .split('\n')
      .filter(Boolean);
  const cursorOf = (source: string) => (app.stateDb.prepare('SELECT state_json FROM sync_state WHERE source = ?').all(source) as Array<{ state_json: string }>).map((r) => r.state_json);

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

  test('one sync of a source at a time at the queue: a second sender is refused, a duplicate job waits for the first', async () => {
    // another sender of the same queue (a second server, or this one before a restart): pg-boss alone
    const other = new PgBoss({ connectionString: pg.urlFor(user, 'writer-secret', database), schema: 'basin_queue' });
    other.on('error', () => undefined);
    await other.start();
    try {
      api.hold('alpha');
      const before = api.arrived.get('alpha') ?? 0;
      const job = (id: string): SyncJob => ({ sync_id: id, source: 'alpha', full_refresh: false, trigger: 'api', schedule: null, state: {}, last_sync_id: null });
      // concurrent enqueues of the same source: the server's sync and the other sender's job
      const [a, otherId] = await Promise.all([Promise.resolve(engine.start('alpha', { trigger: 'api' })), other.send(SYNC_QUEUE, job(crypto.randomUUID()), { singletonKey: 'alpha' })]);
      await api.until(() => (api.arrived.get('alpha') ?? 0) > before, 'an alpha sync to read');
      // whichever was first runs; the other was refused (by the server seeing it queued, or by the
      // queue's stately policy: one queued job per key) or waits queued behind it. Make one wait:
      if (!queueJobs('alpha').includes('created')) assert.ok(await other.send(SYNC_QUEUE, job(crypto.randomUUID()), { singletonKey: 'alpha' }));
      // a third is refused by the queue itself
      assert.equal(await other.send(SYNC_QUEUE, job(crypto.randomUUID()), { singletonKey: 'alpha' }), null);
      assert.deepEqual(queueJobs('alpha').filter((s) => s === 'created' || s === 'active').sort(), ['active', 'created']);
      // both workers poll the queue every 0.5 s meanwhile, one of them idle: neither starts the waiting job
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal(api.maxInFlight.get('alpha'), 1, 'two alpha syncs ran at once');
      assert.deepEqual(queueJobs('alpha').filter((s) => s === 'created' || s === 'active').sort(), ['active', 'created']);
      api.release('alpha');
      const ra = await engine.wait(a.id);
      if (ra.status === 'failed') assert.match(ra.error ?? '', /still queued|already holds a sync of "alpha"/);
      else assert.equal(ra.status, 'succeeded', ra.error ?? '');
      // the waiting job ran after the first ended, never beside it
      await waitFor(() => queueJobs('alpha').every((s) => s !== 'created' && s !== 'active'), 'the alpha jobs to end');
      assert.equal(api.maxInFlight.get('alpha'), 1, 'two alpha syncs ran at once');
      assert.equal(api.arrived.get('alpha'), before + 2);
      void otherId;
      // and with nothing of alpha queued any more, the server syncs it again
      const again = await engine.run('alpha', { trigger: 'api' });
      assert.equal(again.status, 'succeeded', again.error ?? '');
    } finally {
      api.release('alpha');
      await other.stop({ graceful: false, wait: true });
    }
  });

  test("a worker's progress reaches /ws; a cancel stops its sync mid-load, the previous tables and cursor stay", async () => {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
    const messages: Msg[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(String(d))));
    await once(ws, 'open');
    try {
      // a first sync: two pages, 100 rows, cursor id 100
      const first = await engine.run('gamma', { trigger: 'api' });
      assert.equal(first.status, 'succeeded', first.error ?? '');
      assert.equal(first.rows, 100);
      gammaTable = tableOf(first);
      assert.equal(count(gammaTable), 100);
      const cursorBefore = cursorOf('gamma');
      assert.match(cursorBefore.join(), /100/);
      // the second reads page 1 (50 rows, one batch loaded and reported), then waits on page 2
      api.hold('gamma:2');
      const seen = api.requests.length;
      const s = engine.start('gamma', { trigger: 'api' });
      await waitFor(() => messages.some((m) => m.type === 'sync_progress' && m.sync_id === s.id && m.rows === PAGE_ROWS), 'progress of the worker on /ws');
      const progress = messages.find((m) => m.type === 'sync_progress' && m.sync_id === s.id)!;
      assert.equal(progress.source, 'gamma');
      assert.equal(progress.resource, 'gamma');
      assert.equal(typeof progress.rows_per_second, 'number');
      assert.equal(typeof progress.timestamp, 'string');
      assert.ok(messages.findIndex((m) => m.type === 'sync_started' && m.source === 'gamma') < messages.indexOf(progress));
      assert.ok(api.requests.slice(seen).some((r) => r.key === 'gamma' && r.page === 2), 'page 2 asked');
      // the live record shows the rows so far
      assert.equal((await app.http.inject({ method: 'GET', url: `/api/sources/gamma/details` })).statusCode, 200);
      const cancel = await app.http.inject({ method: 'POST', url: `/api/sync/${s.id}/cancel`, headers: { 'x-requested-with': 'XMLHttpRequest' } });
      assert.equal(cancel.statusCode, 200, cancel.body);
      const r = await engine.wait(s.id);
      assert.equal(r.status, 'cancelled', r.error ?? '');
      assert.match(r.error ?? '', /previous data was kept/);
      const runner = workers.find((w) => w.out.includes(`sync ${s.id} of gamma: cancel requested`));
      assert.ok(runner, workers.map((w) => w.out).join('\n---\n'));
      assert.match(runner!.out, new RegExp(`sync ${s.id} of gamma: cancelled`));
      // the worker stopped at once: its held request for page 2 was dropped, never answered
      await api.until(() => (api.inFlight.get('gamma') ?? 0) === 0, 'the held page 2 request to close');
      assert.ok(!api.requests.slice(seen).some((r) => r.key === 'gamma' && r.page === 3), 'the sync went on after the cancel');
      // the previous table and cursor are intact
      assert.equal(count(gammaTable), 100);
      assert.equal(Number(pg.psql(`SELECT max(id) FROM ${gammaTable}`, database).trim()), 100);
      assert.deepEqual(cursorOf('gamma'), cursorBefore);
      assert.equal((await history('gamma')).find((x) => x.id === s.id)!.status, 'cancelled');
      await waitFor(() => messages.some((m) => m.type === 'sync_failed' && m.source === 'gamma'), 'sync_failed on /ws');
      // the next sync runs normally
      api.release('gamma:2');
      const next = await engine.run('gamma', { trigger: 'api' });
      assert.equal(next.status, 'succeeded', next.error ?? '');
    } finally {
      api.release('gamma:2');
      ws.close();
    }
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
    api.release('beta');
  });

  test('a sync cancelled while queued: the queue drops the job, no worker runs it', async () => {
    // the one worker left is busy with alpha: beta stays queued
    api.hold('alpha');
    const seenAlpha = api.arrived.get('alpha') ?? 0;
    const a = engine.start('alpha', { trigger: 'api' });
    await api.until(() => (api.arrived.get('alpha') ?? 0) > seenAlpha, 'the alpha sync to read');
    const seenBeta = api.arrived.get('beta') ?? 0;
    const b = engine.start('beta', { trigger: 'api' });
    await waitFor(() => queueJobs('beta').includes('created'), 'the beta job to be queued');
    const cancel = await app.http.inject({ method: 'POST', url: `/api/sync/${b.id}/cancel`, headers: { 'x-requested-with': 'XMLHttpRequest' } });
    assert.equal(cancel.statusCode, 200, cancel.body);
    const rb = await engine.wait(b.id);
    assert.equal(rb.status, 'cancelled');
    assert.match(rb.error ?? '', /before a worker took it/);
    assert.ok(!queueJobs('beta').includes('created'));
    api.release('alpha');
    assert.equal((await engine.wait(a.id)).status, 'succeeded');
    assert.equal(api.arrived.get('beta') ?? 0, seenBeta, 'a worker ran the cancelled beta sync');
    assert.ok(!workers.some((w) => w.out.includes(b.id)));
  });

  test('a sync past workers.job_timeout_seconds: the queue fails it and its live worker stops before any swap', async () => {
    const rowsBefore = count(betaTable);
    api.hold('beta');
    const seen = api.arrived.get('beta') ?? 0;
    const b = engine.start('beta', { trigger: 'api' });
    await api.until(() => (api.arrived.get('beta') ?? 0) > seen, 'the beta sync to read');
    const r = await engine.wait(b.id);
    assert.equal(r.status, 'failed');
    assert.match(r.error ?? '', /took longer than workers\.job_timeout_seconds/);
    const runner = workers.find((w) => w.out.includes(`sync ${b.id} of beta: started`))!;
    await waitFor(() => runner.out.includes(`sync ${b.id} of beta: the job queue ended the job`), 'the worker to see its job ended');
    // its held request was dropped: the sync stopped instead of loading and swapping late
    await api.until(() => (api.inFlight.get('beta') ?? 0) === 0, 'the held beta request to close');
    await waitFor(() => new RegExp(`sync ${b.id} of beta: cancelled`).test(runner.out), 'the worker to end the sync');
    api.release('beta');
    assert.equal(count(betaTable), rowsBefore);
  });

  test('a server restarted between enqueue and run: no second job is sent, the queued one runs once, the new server records both outcomes', async () => {
    const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    assert.equal(live.length, 1, 'one worker left after the killed one');
    // the one worker is busy with alpha: gamma stays queued
    api.hold('alpha');
    const seenAlpha = api.arrived.get('alpha') ?? 0;
    const a = engine.start('alpha', { trigger: 'api' });
    await api.until(() => (api.arrived.get('alpha') ?? 0) > seenAlpha, 'the alpha sync to read');
    const g = engine.start('gamma', { trigger: 'api' });
    await waitFor(() => queueJobs('gamma').includes('created'), 'the gamma job to be queued');
    const cursorBefore = cursorOf('gamma');
    await app.close();
    // the stopping server left both jobs to the worker and says so
    await boot();
    assert.match((await history('alpha')).find((x) => x.id === a.id)!.error ?? '', /server stopped/);
    assert.match((await history('gamma')).find((x) => x.id === g.id)!.error ?? '', /server stopped/);
    // before it starts, the new server knows nothing in memory, the queue does: no second gamma job
    const dup = await engine.run('gamma', { trigger: 'api' });
    assert.equal(dup.status, 'failed');
    assert.match(dup.error ?? '', /sync of "gamma" is still queued/);
    assert.deepEqual(queueJobs('gamma').filter((s) => s === 'created' || s === 'active'), ['created']);
    // started (as `basin start` does), it waits again for both: a second sync is refused as usual
    await app.start();
    assert.equal(engine.get(a.id)?.status, 'running');
    assert.equal(engine.get(g.id)?.status, 'running');
    const again = await app.http.inject({ method: 'POST', url: '/api/sources/gamma/sync', headers: { 'x-requested-with': 'XMLHttpRequest' } });
    assert.equal(again.statusCode, 409, again.body);
    // the worker ends alpha, then takes the queued gamma job: it runs exactly once
    api.release('alpha');
    const [ra, rg] = [await engine.wait(a.id), await engine.wait(g.id)];
    assert.equal(ra.status, 'succeeded', ra.error ?? '');
    assert.equal(rg.status, 'succeeded', rg.error ?? '');
    assert.equal((await history('gamma')).find((x) => x.id === g.id)!.status, 'succeeded');
    await waitFor(() => live[0]!.out.includes(`sync ${g.id} of gamma: succeeded`), 'the worker to log the gamma sync');
    assert.equal(live[0]!.out.split(`sync ${g.id} of gamma: succeeded`).length - 1, 1, live[0]!.out);
    assert.equal(api.maxInFlight.get('gamma'), 1);
    // the new server took in the cursor state the worker reached in that sync
    const promoted = app.stateDb.prepare('SELECT DISTINCT sync_id FROM sync_state WHERE source = ?').all('gamma') as Array<{ sync_id: string }>;
    assert.deepEqual(promoted.map((r) => r.sync_id), [g.id], JSON.stringify(cursorBefore));
    // with the queue free again the new server syncs gamma itself
    const next = await engine.run('gamma', { trigger: 'api' });
    assert.equal(next.status, 'succeeded', next.error ?? '');
  });

  test("a worker's heartbeat says its job ended even after the server removed the run's row", async () => {
    // the order of a timed-out job in a real run: pg-boss fails the job, the server sees that first and
    // removes the sync_run row, and only then comes the worker's next beat; it must still stop. A queue
    // of its own, so the two workers never take this job
    const probe = new PgBoss({ connectionString: pg.urlFor(user, 'writer-secret', database), schema: 'basin_queue' });
    probe.on('error', () => undefined);
    await probe.start();
    try {
      const queue = 'heartbeat-probe';
      await probe.createQueue(queue, { name: queue, retryLimit: 0 }); // as Basin's queue by default: a failed job is not retried
      const control = new RunControl(probe.getDb(), 'basin_queue');
      const syncId = crypto.randomUUID();
      const jobId = crypto.randomUUID();
      await control.register(syncId, jobId, 'probe');
      assert.equal(await probe.send(queue, { sync_id: syncId }, { id: jobId }), jobId);
      const [taken] = await probe.fetch(queue);
      assert.equal(taken?.id, jobId);
      assert.deepEqual(await control.heartbeat(syncId, 'probe-worker', null, queue, jobId), { stop: null });
      await control.requestCancel(syncId);
      assert.deepEqual(await control.heartbeat(syncId, 'probe-worker', null, queue, jobId), { stop: 'cancel' });
      await probe.fail(queue, jobId, { message: 'handler execution exceeded 12000ms' });
      await control.remove(syncId);
      assert.deepEqual(await control.heartbeat(syncId, 'probe-worker', null, queue, jobId), { stop: 'ended' });
      // a job the server sent without a row (it waits for no report) and that is still active: no answer
      const other = await probe.send(queue, { sync_id: 'no-row' });
      await probe.fetch(queue);
      assert.equal(await control.heartbeat('no-row', 'probe-worker', null, queue, other!), null);
    } finally {
      await probe.stop({ graceful: false, wait: true, timeout: 1000 });
    }
  });

  test('two processes setting up the queue at once: the loser of the race tries again, other errors do not', async () => {
    const probe = new PgBoss({ connectionString: pg.urlFor(user, 'writer-secret', database), schema: 'basin_queue' });
    probe.on('error', () => undefined);
    await probe.start();
    try {
      const db = probe.getDb();
      // the race two starting workers run: one's CREATE ... IF NOT EXISTS is not committed yet when
      // the other's runs; the second waits for the first, then fails on the catalog's unique index
      const first = db.executeSql('BEGIN; CREATE TABLE IF NOT EXISTS setup_race (a int); SELECT pg_sleep(1.5); COMMIT;', []);
      const sleeping = async () => {
        const { rows } = await db.executeSql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'BEGIN; CREATE TABLE IF NOT EXISTS setup_race%' AND wait_event = 'PgSleep'`, []);
        return (rows[0] as { n: number }).n > 0;
      };
      await waitFor(sleeping, 'the first CREATE TABLE to hold its transaction open', 30_000);
      const lost = await db.executeSql('CREATE TABLE IF NOT EXISTS setup_race (a int)', []).then(() => null, (e: unknown) => e);
      await first;
      assert.ok(lost, 'the second CREATE TABLE IF NOT EXISTS failed');
      assert.equal((lost as { code?: string }).code, '23505', String(lost));
      assert.equal(lostSetupRace(lost), true, String(lost));
      assert.equal(lostSetupRace({ code: '40P01', message: 'deadlock detected' }), true);
      // a unique violation on a table of ours is a real error
      await db.executeSql('CREATE TABLE setup_unique (a int PRIMARY KEY); INSERT INTO setup_unique VALUES (1)', []);
      const dup = await db.executeSql('INSERT INTO setup_unique VALUES (1)', []).then(() => null, (e: unknown) => e);
      assert.equal((dup as { code?: string }).code, '23505');
      assert.equal(lostSetupRace(dup), false);
      assert.equal(lostSetupRace(new Error('connect ECONNREFUSED')), false);
    } finally {
      await probe.stop({ graceful: false, wait: true, timeout: 1000 });
    }
  });
});

function tableOf(r: SyncRecord): string {
  return `"${r.tables[0]!.schema}"."${r.tables[0]!.name}"`;
}
