import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { asValue, ManualClock } from '@basin/core';
import { bootScheduler } from './helpers.js';
import { flush } from './fakes.js';

const MIN = 60_000;

test('a due schedule fires on tick, syncs each source, then runs dbt; job recorded with rows', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: nightly
    cron: "0 6 * * *"
    timezone: UTC
    sources: [orders, customers]
`);
  t.after(() => b.app.close());
  b.sched.start({ ticker: false });
  assert.equal(b.sched.nextRun('nightly')!.toISOString(), '2026-03-02T06:00:00.000Z');
  b.sync.auto = (s) => ({ rows: s === 'orders' ? 10 : 5 });

  b.clock.set('2026-03-02T05:59:59Z');
  assert.deepEqual(b.sched.tick(), []);
  b.clock.set('2026-03-02T06:00:30Z');
  const [job] = b.sched.tick();
  assert.equal(job!.status, 'running');
  assert.equal(job!.scheduled_for, '2026-03-02T06:00:00.000Z');
  const done = await b.sched.wait(job!.id);
  assert.equal(done!.status, 'succeeded');
  assert.equal(done!.rows, 15);
  assert.deepEqual(b.sync.started.map((s) => [s.source, s.opts?.trigger, s.opts?.schedule]), [['orders', 'schedule', 'nightly'], ['customers', 'schedule', 'nightly']]);
  assert.equal(b.tx.calls.length, 1);
  assert.equal(b.tx.calls[0]!.schedule, 'nightly');
  assert.equal(b.sched.nextRun('nightly')!.toISOString(), '2026-03-03T06:00:00.000Z');
  // the same instant again fires nothing
  assert.deepEqual(b.sched.tick(), []);

  const res = await b.app.http.inject({ method: 'GET', url: '/api/schedules/nightly/history?limit=10' });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.total, 1);
  assert.equal(body.items[0].status, 'succeeded');
  assert.equal(body.items[0].rows, 15);
  const log = (await b.app.http.inject({ method: 'GET', url: `/api/schedules/jobs/${job!.id}` })).json();
  assert.match(log.log, /sync orders: succeeded, 10 rows/);
});

test('sync: models of failed and attention-flagged sources are excluded; dbt runs once per job even with the auto run on', async (t) => {
  const yml = `schedules:
  - name: all
    cron: daily
    sources: [orders, customers, events]
`;
  const b = await bootScheduler(yml, { overrides: { governance: asValue({ attentionSources: async () => new Set(['events']) }) } });
  t.after(() => b.app.close());
  b.sync.auto = (s) => (s === 'customers' ? { error: 'HTTP 500' } : { rows: 1 });
  const job = await b.sched.wait(b.sched.trigger('all').id);
  assert.equal(job!.status, 'failed');
  assert.equal(job!.rows, 2);
  assert.deepEqual(b.tx.calls[0]!.excludeSources, ['customers', 'events']);

  // with platform.auto_tx on (the default) the transform plugin skips schedule-triggered syncs,
  // so the job itself runs dbt exactly once, after all its sources
  const withAuto = await bootScheduler(yml, { overrides: { txAutoRun: asValue({}) } });
  t.after(() => withAuto.app.close());
  withAuto.sync.auto = () => ({ rows: 1 });
  const j2 = await withAuto.sched.wait(withAuto.sched.trigger('all').id);
  assert.equal(j2!.status, 'succeeded');
  assert.equal(withAuto.tx.calls.length, 1);
  assert.equal(withAuto.tx.calls[0]!.trigger, 'schedule');
});

test('sync_only does not run dbt; tx runs the tx_command', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: load
    type: sync_only
    cron: every_hour
    sources: [orders]
  - name: marts
    type: tx
    cron: every_hour
    tx_command: build --select marts
`);
  t.after(() => b.app.close());
  b.sync.auto = () => ({ rows: 3 });
  b.sched.start({ ticker: false });
  b.clock.set('2026-03-02T06:00:00Z');
  const jobs = b.sched.tick();
  assert.equal(jobs.length, 2);
  await b.sched.idle();
  assert.equal(b.tx.calls.length, 1);
  assert.equal(b.tx.calls[0]!.command, 'build');
  assert.deepEqual(b.tx.calls[0]!.args, ['--select', 'marts']);
  const load = (await b.app.http.inject({ url: '/api/schedules/load' })).json();
  assert.equal(load.last_run.status, 'succeeded');
  assert.equal(load.last_run.rows, 3);
  assert.equal(load.next_run, '2026-03-02T07:00:00.000Z');
});

test('a schedule never overlaps itself: a tick while running is recorded as skipped', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: often
    type: sync_only
    cron: every_15m
    sources: [orders]
`);
  t.after(() => b.app.close());
  b.sched.start({ ticker: false });
  b.clock.set('2026-03-02T05:15:00Z');
  const [first] = b.sched.tick();
  b.clock.set('2026-03-02T05:30:00Z');
  const [second] = b.sched.tick();
  assert.equal(second!.status, 'skipped');
  assert.match(second!.error!, new RegExp(first!.id));
  // an API trigger while it runs answers 409 and is recorded as skipped too
  const res = await b.app.http.inject({ method: 'POST', url: '/api/schedules/often/trigger' });
  assert.equal(res.statusCode, 409);
  assert.equal(res.json().error.code, 'schedule_running');
  b.sync.finish('orders', { rows: 1 });
  assert.equal((await b.sched.wait(first!.id))!.status, 'succeeded');
  assert.equal(b.sync.started.length, 1);
  const hist = (await b.app.http.inject({ url: '/api/schedules/often/history' })).json();
  assert.deepEqual(hist.items.map((j: { status: string }) => j.status).sort(), ['skipped', 'skipped', 'succeeded']);
});

test('timeout_minutes: a job running too long is cancelled (sync cancelled) and recorded timed_out', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: slow
    type: sync_only
    cron: daily
    timezone: UTC
    sources: [orders]
    timeout_minutes: 30
`);
  t.after(() => b.app.close());
  b.sched.start({ ticker: false });
  const job = (await b.app.http.inject({ method: 'POST', url: '/api/schedules/slow/trigger' })).json();
  assert.equal(job.status, 'running');
  b.clock.advance(29 * MIN);
  b.sched.tick();
  await flush();
  assert.equal(b.sync.cancelled.length, 0);
  b.clock.advance(2 * MIN);
  b.sched.tick();
  const done = await b.sched.wait(job.id);
  assert.equal(done!.status, 'timed_out');
  assert.match(done!.error!, /timed out after 30 minute/);
  assert.deepEqual(b.sync.cancelled, ['sync_1']);
});

test('cancel: POST /api/schedules/jobs/{id}/cancel stops the running sync', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: manual
    type: sync_only
    cron: daily
    sources: [orders]
`);
  t.after(() => b.app.close());
  b.sched.start({ ticker: false });
  const job = (await b.app.http.inject({ method: 'POST', url: '/api/schedules/manual/trigger' })).json();
  const res = await b.app.http.inject({ method: 'POST', url: `/api/schedules/jobs/${job.id}/cancel` });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().status, 'cancelled');
  assert.deepEqual(b.sync.cancelled, ['sync_1']);
  assert.equal(b.sync.isRunning('orders'), false);
  const again = await b.app.http.inject({ method: 'POST', url: `/api/schedules/jobs/${job.id}/cancel` });
  assert.equal(again.statusCode, 409);
  assert.equal((await b.app.http.inject({ method: 'POST', url: '/api/schedules/jobs/job_nope/cancel' })).statusCode, 404);
});

test('retries: a failed run emits sync_retrying with attempt_number and next_retry_at, then retries on a later tick', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: flaky
    type: sync_only
    cron: daily
    timezone: UTC
    sources: [orders]
    retries: 2
    retry_delay_seconds: 600
`);
  t.after(() => b.app.close());
  const retrying: unknown[] = [];
  b.app.events.on('sync_retrying', (p) => void retrying.push(p));
  b.sched.start({ ticker: false });
  b.sync.auto = () => ({ error: 'HTTP 503 from upstream' });
  b.clock.set('2026-03-02T06:00:00Z');
  const [first] = b.sched.tick();
  await b.sched.idle();
  assert.equal((await b.sched.wait(first!.id))!.status, 'failed');
  assert.equal(retrying.length, 1);
  assert.deepEqual({ ...(retrying[0] as object), retry_job_id: undefined }, {
    schedule: 'flaky', sources: ['orders'], error: 'orders: HTTP 503 from upstream', attempt_number: 1, next_retry_at: '2026-03-02T06:10:00.000Z', job_id: first!.id, retry_job_id: undefined,
  });
  b.clock.set('2026-03-02T06:09:59Z');
  assert.deepEqual(b.sched.tick(), []);
  b.clock.set('2026-03-02T06:10:00Z');
  const [second] = b.sched.tick();
  assert.equal(second!.attempt, 2);
  assert.equal(second!.retry_of, first!.id);
  await b.sched.idle();
  assert.equal(retrying.length, 2);
  // the third attempt succeeds: no more retries
  b.sync.auto = () => ({ rows: 4 });
  b.clock.set('2026-03-02T06:20:00Z');
  const [third] = b.sched.tick();
  assert.equal(third!.attempt, 3);
  assert.equal((await b.sched.wait(third!.id))!.status, 'succeeded');
  assert.equal(retrying.length, 2);
  // after the last attempt fails there is no further retry
  b.sync.auto = () => ({ error: 'still down' });
  b.clock.set('2026-03-03T06:00:00Z');
  b.sched.tick();
  await b.sched.idle();
  b.clock.set('2026-03-03T06:10:00Z');
  b.sched.tick();
  await b.sched.idle();
  b.clock.set('2026-03-03T06:20:00Z');
  b.sched.tick();
  await b.sched.idle();
  b.clock.set('2026-03-03T06:30:00Z');
  assert.deepEqual(b.sched.tick(), []);
  assert.equal(retrying.length, 4);
});

test('misfire: a run missed while down is recorded missed beyond misfire_grace_time, and run at start-up within it', async (t) => {
  const yml = `schedules:
  - name: strict
    type: sync_only
    cron: "0 6 * * *"
    timezone: UTC
    sources: [orders]
    misfire_grace_time: 300
  - name: lenient
    type: sync_only
    cron: "0 6 * * *"
    timezone: UTC
    sources: [customers]
    misfire_grace_time: 7200
`;
  const first = await bootScheduler(yml, { clock: new ManualClock('2026-03-02T05:00:00Z') });
  first.sched.start({ ticker: false });
  await first.app.close();

  // back up at 07:00: the 06:00 runs are an hour late
  const clock = new ManualClock('2026-03-02T07:00:00Z');
  const b = await bootScheduler(yml, { dir: first.dir, clock });
  t.after(() => b.app.close());
  b.sync.auto = () => ({ rows: 2 });
  b.sched.start({ ticker: false });
  await b.sched.idle();
  const strict = (await b.app.http.inject({ url: '/api/schedules/strict/history' })).json();
  assert.equal(strict.items.length, 1);
  assert.equal(strict.items[0].status, 'missed');
  assert.equal(strict.items[0].scheduled_for, '2026-03-02T06:00:00.000Z');
  assert.match(strict.items[0].error, /missed 1 run/);
  const lenient = (await b.app.http.inject({ url: '/api/schedules/lenient/history' })).json();
  assert.equal(lenient.items[0].status, 'succeeded');
  assert.equal(lenient.items[0].trigger, 'startup');
  assert.deepEqual(b.sync.started.map((s) => s.source), ['customers']);
  assert.equal(b.sched.nextRun('strict')!.toISOString(), '2026-03-03T06:00:00.000Z');
});

test('disabled schedules and start_date: nothing fires before start_date or when disabled', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: later
    type: sync_only
    cron: every_hour
    sources: [orders]
    start_date: "2026-03-05T00:00:00Z"
  - name: off
    type: sync_only
    cron: every_15m
    sources: [customers]
    enabled: false
`);
  t.after(() => b.app.close());
  b.sync.auto = () => ({ rows: 1 });
  b.sched.start({ ticker: false });
  b.clock.set('2026-03-04T23:59:00Z');
  assert.deepEqual(b.sched.tick(), []);
  const list = (await b.app.http.inject({ url: '/api/schedules' })).json();
  assert.equal(list.find((s: { name: string }) => s.name === 'later').next_run, '2026-03-05T00:00:00.000Z');
  assert.equal(list.find((s: { name: string }) => s.name === 'off').next_run, null);
  b.clock.set('2026-03-05T00:00:00Z');
  assert.equal(b.sched.tick().length, 1);
  await b.sched.idle();
});

test('script schedules run a Python script inside scripts/ and capture its output; escapes are refused', async (t) => {
  const b = await bootScheduler(
    `schedules:
  - name: report
    type: script
    cron: daily
    script_path: scripts/report.py
  - name: broken
    type: script
    cron: daily
    script_path: fail.py
`,
    { files: { 'scripts/report.py': 'import os\nprint("hello from", os.environ["BASIN_SCHEDULE"])\n', 'scripts/fail.py': 'import sys\nprint("bad input", file=sys.stderr)\nsys.exit(3)\n' } },
  );
  t.after(() => b.app.close());
  b.sched.start({ ticker: false });
  const ok = await b.sched.wait(b.sched.trigger('report').id);
  assert.equal(ok!.status, 'succeeded');
  const okLog = (await b.app.http.inject({ url: `/api/schedules/jobs/${ok!.id}` })).json();
  assert.match(okLog.log, /hello from report/);
  const bad = await b.sched.wait(b.sched.trigger('broken').id);
  assert.equal(bad!.status, 'failed');
  assert.equal(bad!.error, 'script exited with code 3');
  const badLog = (await b.app.http.inject({ url: `/api/schedules/jobs/${bad!.id}` })).json();
  assert.match(badLog.log, /bad input/);

  // a symlink inside scripts/ pointing outside is refused at run time
  fs.writeFileSync(path.join(b.dir, 'outside.py'), 'print("escaped")\n');
  fs.symlinkSync(path.join(b.dir, 'outside.py'), path.join(b.dir, 'scripts/link.py'));
  fs.writeFileSync(path.join(b.dir, '.basin/schedules.yml'), 'schedules:\n  - name: linked\n    type: script\n    cron: daily\n    script_path: link.py\n');
  assert.equal((await b.app.http.inject({ method: 'POST', url: '/api/schedules/reload' })).statusCode, 200);
  const linked = await b.sched.wait(b.sched.trigger('linked').id);
  assert.equal(linked!.status, 'failed');
  assert.match(linked!.error!, /must stay inside scripts/);

  // a path escaping scripts/ is refused by the reload validation
  fs.writeFileSync(path.join(b.dir, '.basin/schedules.yml'), 'schedules:\n  - name: evil\n    type: script\n    cron: daily\n    script_path: ../.basin/project.yml\n');
  const res = await b.app.http.inject({ method: 'POST', url: '/api/schedules/reload' });
  assert.equal(res.statusCode, 400);
  assert.match(JSON.stringify(res.json().error.details), /must stay inside scripts/);
});

test('a long-running script is killed by cancel', async (t) => {
  const b = await bootScheduler(`schedules:
  - name: sleepy
    type: script
    cron: daily
    script_path: sleepy.py
`, { files: { 'scripts/sleepy.py': 'import time\nprint("started", flush=True)\ntime.sleep(60)\nprint("never")\n' } });
  t.after(() => b.app.close());
  b.sched.start({ ticker: false });
  const job = b.sched.trigger('sleepy');
  // wait for the script to print (real process), then cancel
  for (let i = 0; i < 200 && !(b.sched as any).active.get('sleepy')?.log.includes('started'); i++) await new Promise((r) => setTimeout(r, 25));
  const res = await b.app.http.inject({ method: 'POST', url: `/api/schedules/jobs/${job.id}/cancel` });
  assert.equal(res.json().status, 'cancelled');
  const log = (await b.app.http.inject({ url: `/api/schedules/jobs/${job.id}` })).json().log;
  assert.match(log, /started/);
  assert.doesNotMatch(log, /never/);
});
