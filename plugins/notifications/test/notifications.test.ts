import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Deliverer } from '../src/delivery.js';
import type { Notifier } from '../src/notifier.js';
import { bootScheduler, type Booted } from '../../scheduler/test/helpers.js';
import { deadUrl, startReceiver } from './receiver.js';

const GENERIC_KEYS = ['event', 'schedule', 'sources', 'error', 'duration_seconds', 'timestamp', 'dashboard_url', 'rows_loaded', 'stale_hours', 'attempt_number', 'next_retry_at', 'metadata'];

async function boot(yml: string): Promise<Booted & { notifier: Notifier; deliverer: Deliverer }> {
  const b = await bootScheduler(yml);
  const deliverer = b.app.container.resolve<Deliverer>('webhookDeliverer');
  deliverer.policy.backoffMs = 5; // keep retries quick; the count and the log are what is checked
  return { ...b, notifier: b.app.container.resolve<Notifier>('notifier'), deliverer };
}

test('generic and chat payloads for a scheduled sync that succeeded and one that failed', async (t) => {
  const rx = await startReceiver();
  const b = await boot(`schedules:
  - name: nightly
    type: sync_only
    cron: daily
    sources: [orders, customers]
notifications:
  webhooks:
    - { name: ops, url: "${rx.url}/generic" }
    - { name: team, url: "${rx.url}/chat", format: chat }
`);
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  b.sched.start({ ticker: false });
  b.sync.auto = (s) => ({ rows: s === 'orders' ? 12 : 3 });
  const job = b.sched.trigger('nightly');
  await b.sched.wait(job.id);
  await b.notifier.idle();
  const generic = rx.received.find((r) => r.path === '/generic')!;
  assert.deepEqual(Object.keys(generic.body).sort(), [...GENERIC_KEYS].sort());
  assert.deepEqual(
    { ...generic.body, metadata: undefined },
    {
      event: 'sync_completed', schedule: 'nightly', sources: ['orders', 'customers'], error: null, duration_seconds: 0, timestamp: '2026-03-02T05:00:00.000Z',
      dashboard_url: 'http://localhost:8800/schedules', rows_loaded: 15, stale_hours: null, attempt_number: null, next_retry_at: null, metadata: undefined,
    },
  );
  assert.equal(generic.body.metadata.job_id, job.id);
  assert.equal(generic.headers['content-type'], 'application/json');
  const chat = rx.received.find((r) => r.path === '/chat')!.body;
  assert.match(chat.text, /Sync completed · schedule nightly · sources orders, customers · 15 rows/);
  assert.equal(chat.blocks[0].type, 'header');
  assert.ok(chat.blocks.some((bl: any) => bl.type === 'section' && bl.fields?.some((f: any) => f.text === '*Rows loaded*\n15')));

  b.sync.auto = () => ({ error: 'token <expired>' });
  await b.sched.wait(b.sched.trigger('nightly').id);
  await b.notifier.idle();
  const failed = rx.received.filter((r) => r.path === '/generic')[1]!.body;
  assert.equal(failed.event, 'sync_failed');
  assert.equal(failed.error, 'orders: token <expired>; customers: token <expired>');
  const chatFail = rx.received.filter((r) => r.path === '/chat')[1]!.body;
  assert.ok(chatFail.blocks.some((bl: any) => bl.text?.text?.includes('token &lt;expired&gt;')), 'chat markup in errors is escaped');
});

test('gating: on_success off drops completions, notify_on overrides the global triggers', async (t) => {
  const rx = await startReceiver();
  const b = await boot(`schedules:
  - name: plain
    type: sync_only
    cron: daily
    sources: [orders]
  - name: loud
    type: sync_only
    cron: daily
    sources: [customers]
    notify_on: [success]
notifications:
  on_success: false
  on_governance: false
  webhooks:
    - { name: ops, url: "${rx.url}/hook" }
`);
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  b.sched.start({ ticker: false });
  b.sync.auto = () => ({ rows: 1 });
  await b.sched.wait(b.sched.trigger('plain').id); // gated off (on_success false)
  await b.sched.wait(b.sched.trigger('loud').id); // notify_on [success] wins
  b.sync.auto = () => ({ error: 'boom' });
  await b.sched.wait(b.sched.trigger('plain').id); // on_failure default true
  await b.sched.wait(b.sched.trigger('loud').id); // notify_on has no failure: dropped
  await b.app.events.emit('schema_drift_detected', { source: 'orders', table: 'orders', changes: [] } as never); // on_governance false
  await b.app.events.emit('metric_alert', { monitor: 'revenue', message: 'revenue fell 40%' } as never); // on_analysis default true
  await b.notifier.idle();
  assert.deepEqual(
    rx.received.map((r) => `${r.body.event}:${r.body.schedule}`).sort(),
    ['metric_alert:', 'sync_completed:loud', 'sync_failed:plain'],
  );
  assert.equal(rx.received.find((r) => r.body.event === 'metric_alert')!.body.error, 'revenue fell 40%');
});

test('retries on 5xx with backoff; a down receiver is retried, logged and never blocks the job', async (t) => {
  const rx = await startReceiver();
  const dead = await deadUrl();
  rx.script.set('/flaky', [503, 502]);
  rx.script.set('/bad', [404]);
  const b = await boot(`schedules:
  - name: nightly
    type: sync_only
    cron: daily
    sources: [orders]
notifications:
  webhooks:
    - { name: flaky, url: "${rx.url}/flaky" }
    - { name: gone, url: "${dead}" }
    - { name: bad, url: "${rx.url}/bad" }
`);
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  b.sched.start({ ticker: false });
  b.sync.auto = () => ({ rows: 5 });
  const done = await b.sched.wait(b.sched.trigger('nightly').id);
  assert.equal(done!.status, 'succeeded'); // finished regardless of the receivers
  await b.notifier.idle();
  assert.equal(rx.received.filter((r) => r.path === '/flaky').length, 3);
  assert.equal(rx.received.filter((r) => r.path === '/bad').length, 1, 'a 4xx is not retried');
  const log = (await b.app.http.inject({ url: '/api/notifications/deliveries' })).json();
  const by = Object.fromEntries(log.items.map((i: any) => [i.webhook, i]));
  assert.deepEqual([by.flaky.ok, by.flaky.attempts, by.flaky.status_code], [true, 3, 200]);
  assert.deepEqual([by.gone.ok, by.gone.attempts, by.gone.status_code], [false, b.deliverer.policy.maxAttempts, null]);
  assert.match(by.gone.error, /network error: ECONNREFUSED/);
  assert.deepEqual([by.bad.ok, by.bad.attempts, by.bad.status_code], [false, 1, 404]);
});

test('sync_retrying carries attempt_number and next_retry_at', async (t) => {
  const rx = await startReceiver();
  const b = await boot(`schedules:
  - name: flaky
    type: sync_only
    cron: daily
    sources: [orders]
    retries: 1
    retry_delay_seconds: 120
notifications:
  webhooks:
    - { name: ops, url: "${rx.url}/hook" }
`);
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  b.sched.start({ ticker: false });
  b.sync.auto = () => ({ error: 'HTTP 500' });
  await b.sched.wait(b.sched.trigger('flaky').id);
  await b.sched.idle();
  b.clock.advance(120_000);
  b.sched.tick();
  await b.sched.idle();
  await b.notifier.idle();
  const events = rx.received.map((r) => r.body);
  assert.deepEqual(events.map((e) => e.event), ['sync_retrying', 'sync_failed']);
  assert.equal(events[0].attempt_number, 1);
  assert.equal(events[0].next_retry_at, '2026-03-02T05:02:00.000Z');
  assert.equal(events[1].attempt_number, 2);
});

test('sync_stale is sent once per stale period and re-armed by a successful sync', async (t) => {
  const rx = await startReceiver();
  const b = await boot(`schedules:
  - name: nightly
    type: sync_only
    cron: daily
    sources: [orders]
notifications:
  stale_threshold_hours: 6
  webhooks:
    - { name: ops, url: "${rx.url}/hook" }
`);
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  b.sync.auto = () => ({ rows: 1 });
  b.sched.start({ ticker: false });
  await b.sched.wait(b.sched.trigger('nightly').id); // success at 05:00
  await b.notifier.idle();
  rx.received.length = 0;
  b.clock.set('2026-03-02T10:59:00Z');
  assert.equal(b.notifier.checkStale().length, 0);
  b.clock.set('2026-03-02T11:30:00Z');
  assert.equal(b.notifier.checkStale().length, 1);
  b.clock.set('2026-03-02T12:30:00Z');
  assert.equal(b.notifier.checkStale().length, 0, 'not again in the same stale period');
  await b.notifier.idle();
  assert.equal(rx.received.length, 1);
  assert.equal(rx.received[0]!.body.event, 'sync_stale');
  assert.equal(rx.received[0]!.body.stale_hours, 6.5);
  assert.deepEqual(rx.received[0]!.body.sources, ['orders']);
  await b.sched.wait(b.sched.trigger('nightly').id); // fresh again at 12:30
  b.clock.set('2026-03-02T18:31:00Z');
  assert.equal(b.notifier.checkStale().length, 1);
});

test('GET /api/notifications/config masks tokens; POST /api/notifications/test reports each delivery', async (t) => {
  const rx = await startReceiver();
  const dead = await deadUrl();
  const b = await boot(`notifications:
  webhooks:
    - { name: ops, url: "${rx.url}/hook?token=s3cr3t-value&channel=x" }
    - { name: chat, url: "${rx.url}/services/T0001/B0002/abcdefghijklmnopqrstuvwx", format: chat }
    - { name: gone, url: "${dead}" }
`);
  b.deliverer.policy.maxAttempts = 2;
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  const cfg = await b.app.http.inject({ url: '/api/notifications/config' });
  assert.equal(cfg.statusCode, 200);
  const text = cfg.body;
  assert.doesNotMatch(text, /s3cr3t|abcdefghijklmnop/);
  assert.equal(cfg.json().webhooks[0].url, `${rx.url}/hook?token=***&channel=***`);
  assert.equal(cfg.json().webhooks[1].url, `${rx.url}/services/T0001/B0002/***`);
  assert.equal(cfg.json().stale_threshold_hours, 24);

  const res = await b.app.http.inject({ method: 'POST', url: '/api/notifications/test' });
  assert.equal(res.statusCode, 200);
  const { ok, results } = res.json();
  assert.equal(ok, false);
  assert.deepEqual(results.map((r: any) => [r.webhook, r.ok, r.attempts]), [['ops', true, 1], ['chat', true, 1], ['gone', false, 2]]);
  assert.doesNotMatch(res.body, /s3cr3t/);
  assert.equal(rx.received[0]!.body.metadata.test, true);
  assert.ok(rx.received[1]!.body.blocks.length > 0);
});

test('reload: a bad webhook URL or cron is refused with every problem and the running schedules are kept', async (t) => {
  const b = await boot(`schedules:
  - name: nightly
    type: sync_only
    cron: daily
    sources: [orders]
`);
  t.after(() => b.app.close());
  b.sched.start({ ticker: false });
  const file = path.join(b.dir, '.basin/schedules.yml');
  fs.writeFileSync(file, `schedules:
  - name: nightly
    type: sync_only
    cron: "61 * * * *"
    timezone: Mars/Olympus
    sources: [orders]
notifications:
  webhooks:
    - { name: ops, url: "ftp://example.com/hook" }
`);
  const res = await b.app.http.inject({ method: 'POST', url: '/api/schedules/reload' });
  assert.equal(res.statusCode, 400);
  const err = res.json().error;
  assert.equal(err.code, 'config_invalid');
  const paths = err.details.map((d: any) => d.path).sort();
  assert.deepEqual(paths, ['/notifications/webhooks/0/url', '/schedules/0/cron', '/schedules/0/timezone']);
  assert.ok(err.details.every((d: any) => typeof d.line === 'number'));
  const kept = (await b.app.http.inject({ url: '/api/schedules/nightly' })).json();
  assert.equal(kept.cron, 'daily');

  fs.writeFileSync(file, `schedules:
  - name: hourly
    type: sync_only
    cron: every_hour
    sources: [customers]
`);
  const ok = await b.app.http.inject({ method: 'POST', url: '/api/schedules/reload' });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json().map((s: any) => [s.name, s.next_run]), [['hourly', '2026-03-02T06:00:00.000Z']]);
  assert.equal((await b.app.http.inject({ url: '/api/schedules/nightly' })).statusCode, 404);
  // sources no enabled sync schedule lists
  const un = (await b.app.http.inject({ url: '/api/sources/unscheduled' })).json();
  assert.deepEqual(un.map((s: any) => s.name), ['orders', 'events']);
});

test('PII findings lose sampled values before they leave Basin', async (t) => {
  const rx = await startReceiver();
  const b = await boot(`notifications:
  webhooks:
    - { name: ops, url: "${rx.url}/hook" }
`);
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  await b.app.events.emit('pii_detected', { source: 'customers', table: 'people', findings: [{ column: 'email', kind: 'email', samples: ['a@b.example'], match_ratio: 0.9 }] } as never);
  await b.notifier.idle();
  const body = rx.received[0]!.body;
  assert.equal(body.event, 'pii_detected');
  assert.deepEqual(body.sources, ['customers']);
  assert.deepEqual(body.metadata, { table: 'people', findings: [{ column: 'email', kind: 'email' }] });
});

test('syncs not started by a schedule notify failures only; drift is sent under on_governance', async (t) => {
  const rx = await startReceiver();
  const b = await boot(`schedules:
  - name: nightly
    type: sync_only
    cron: daily
    sources: [orders]
notifications:
  webhooks:
    - { name: ops, url: "${rx.url}/hook" }
`);
  t.after(async () => {
    await b.app.close();
    await rx.close();
  });
  await b.app.events.emit('sync_completed', { source: 'events', sync_id: 's1', rows: 9, tables: [], duration_seconds: 1, trigger: 'watcher', schedule: null } as never);
  await b.app.events.emit('sync_failed', { source: 'events', sync_id: 's2', error: 'bad CSV header', trigger: 'watcher', schedule: null } as never);
  // a scheduled sync's own failure event is left to the job-level notification
  await b.app.events.emit('sync_failed', { source: 'orders', sync_id: 's3', error: 'x', trigger: 'schedule', schedule: 'nightly' } as never);
  await b.app.events.emit('schema_drift_detected', { source: 'orders', table: 'orders', changes: [{ kind: 'column_removed', column: 'email' }] } as never);
  await b.notifier.idle();
  const bodies = rx.received.map((r) => r.body).sort((x, y) => x.event.localeCompare(y.event));
  assert.deepEqual(bodies.map((x) => [x.event, x.schedule, x.sources]), [['schema_drift_detected', 'nightly', ['orders']], ['sync_failed', 'watcher', ['events']]]);
  assert.equal(bodies[1].error, 'bad CSV header');
  assert.deepEqual(bodies[0].metadata, { table: 'orders', changes: [{ kind: 'column_removed', column: 'email' }] });
});
