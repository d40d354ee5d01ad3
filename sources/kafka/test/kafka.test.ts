// kafka against a real Apache Kafka broker (KRaft, one node, started once for this file by
// test/support/kafka.ts) through kafkajs: the SDK contract kit, several partitions, keys and
// headers, reads that continue from the committed offsets and stop at the high-water marks of their
// start, the consumer group's offsets committed only after Basin's commit, a sync killed with
// SIGKILL mid-load, and errors (unreachable broker, SASL/PLAIN refused, missing topic) that say
// what to fix and show no secret.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { createTestContext, runSourceContract } from '@basin/sdk/testkit';
import type { ReadItem } from '@basin/sdk';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { parse } from 'yaml';
import source from '../src/index.js';
import { startKafkaFixture } from './kafka-fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const k = await startKafkaFixture();
// the CI budget wants to know what a broker costs
process.stderr.write(`# kafka broker (KRaft) started in ${k.startMs} ms\n`);
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  await k.close();
});

const msgs = (from: number, to: number, tag = 'e') => Array.from({ length: to - from + 1 }, (_, i) => ({ key: `k${from + i}`, value: JSON.stringify({ n: from + i, tag }) }));

await k.createTopic('clicks', 3);
await k.produce('clicks', msgs(1, 300));
await k.createTopic('orders.v1', 1);
await k.produce('orders.v1', msgs(1, 20, 'o'));

runSourceContract(source, { bootstrap_servers: [k.bootstrap], topics: ['clicks', 'orders.v1'] }, {
  failingConfig: { bootstrap_servers: [k.bootstrap], topics: ['no-such-topic'] },
  async addData() {
    await k.produce('clicks', msgs(301, 310));
  },
});

type State = Record<string, Record<string, unknown>>;
async function readAll(config: Record<string, unknown>, state: State = {}, env: Record<string, string> = {}, name = 'direct') {
  const ctx = createTestContext(source, config, { env, name });
  const resources = await source.discover(ctx);
  const out = { rows: [] as Record<string, unknown>[], state: { ...state }, logs: ctx.logs, ctx };
  for await (const item of source.read(ctx, resources, state) as AsyncIterable<ReadItem>) {
    if (item.kind === 'records') out.rows.push(...item.records);
    if (item.kind === 'state') out.state[item.resource] = item.state;
  }
  return out;
}
const ns = (rs: Record<string, unknown>[]) => rs.map((r) => (r.value as { n: number }).n).sort((a, b) => a - b);
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

test('kafka: every partition is read, keys, values and headers land as columns', async () => {
  await k.createTopic('users', 4);
  await k.produce('users', [
    ...range(1, 40).map((n) => ({ key: JSON.stringify({ id: n }), value: JSON.stringify({ n, name: `u${n}` }), headers: { trace: `t${n}` } })),
    { key: JSON.stringify({ id: 41 }), value: 'not json', partition: 0 },
    { key: null, value: null, partition: 1 },
  ]);
  const r = await readAll({ bootstrap_servers: [k.bootstrap], topics: ['users'], key_format: 'json' });
  assert.equal(r.rows.length, 42);
  assert.deepEqual(new Set(r.rows.map((x) => x.kafka_partition)), new Set([0, 1, 2, 3]), 'messages of all four partitions');
  const one = r.rows.find((x) => (x.key as { id?: number } | null)?.id === 7)!;
  assert.deepEqual(one.value, { n: 7, name: 'u7' });
  assert.deepEqual(one.headers, { trace: 't7' });
  assert.match(String(one.kafka_timestamp), /^\d{4}-\d\d-\d\dT/);
  // the same key always lands in the same partition: ordered offsets per partition
  for (const p of [0, 1, 2, 3]) {
    const offs = r.rows.filter((x) => x.kafka_partition === p).map((x) => x.kafka_offset as number);
    assert.deepEqual(offs, range(0, offs.length - 1), `partition ${p} read from 0 without a gap`);
  }
  assert.equal(r.rows.find((x) => (x.key as { id?: number } | null)?.id === 41)!.value, null, 'a value that is not JSON loads as NULL');
  assert.ok(r.logs.some((l) => /1 key\(s\) or value\(s\) that are not JSON/.test(l.msg)));
  const tomb = r.rows.find((x) => x.key === null)!;
  assert.equal(tomb.value, null, 'a tombstone (null value) loads as NULL');
  const text = await readAll({ bootstrap_servers: [k.bootstrap], topics: ['users'], value_format: 'text' });
  assert.equal(text.rows.find((x) => x.key === JSON.stringify({ id: 41 }))!.value, 'not json', 'value_format: text keeps the text; keys are text by default');
  assert.equal(r.state.users!.topic, 'users');
  assert.equal(Object.keys(r.state.users!.partitions as object).length, 4);
});

test('kafka: each read continues from the committed offsets, is bounded by the high-water marks of its start, and the group learns the offsets only through afterCommit', async () => {
  await k.createTopic('busy', 2);
  await k.produce('busy', msgs(1, 100));
  const config = { bootstrap_servers: [k.bootstrap], topics: ['busy'], max_bytes_per_partition: 1024 };
  const ctx = createTestContext(source, config, { name: 'bounded' });
  const resources = await source.discover(ctx);
  let rows: Record<string, unknown>[] = [];
  let state: State = {};
  let wrote = false;
  for await (const item of source.read(ctx, resources, {}) as AsyncIterable<ReadItem>) {
    if (item.kind === 'state') state[item.resource] = item.state;
    if (item.kind !== 'records') continue;
    rows.push(...item.records);
    if (!wrote) {
      // a producer keeps writing while the sync reads: those messages wait for the next run
      wrote = true;
      await k.produce('busy', msgs(101, 160));
    }
  }
  assert.deepEqual(ns(rows), range(1, 100));
  assert.deepEqual(Object.values(await k.groupOffsets('basin-bounded', 'busy')), [-1, -1], 'reading commits nothing to the group');
  await source.afterCommit!(ctx, state);
  const committed = await k.groupOffsets('basin-bounded', 'busy');
  assert.equal(committed[0]! + committed[1]!, 100, 'afterCommit commits the offsets Basin committed');
  assert.deepEqual(committed, (state.busy as { partitions: Record<string, number> }).partitions);

  const second = await readAll(config, state, {}, 'bounded');
  assert.deepEqual(ns(second.rows), range(101, 160), 'exactly the messages written since');
  rows = (await readAll(config, second.state, {}, 'bounded')).rows;
  assert.equal(rows.length, 0, 'nothing new, nothing read');
  // a source adopting an existing group starts from the group's offsets when Basin has none
  await k.produce('busy', msgs(161, 170));
  const adopted = await readAll(config, {}, {}, 'bounded');
  assert.deepEqual(ns(adopted.rows), range(101, 170));
  // full refresh: from the start of the retention whatever the group says
  const ctxFull = createTestContext(source, config, { name: 'bounded', fullRefresh: true });
  let all = 0;
  for await (const item of source.read(ctxFull, resources, second.state) as AsyncIterable<ReadItem>) if (item.kind === 'records') all += item.records.length;
  assert.equal(all, 170);
});

test('kafka: transaction markers and aborted transactions do not hold a run back; offsets deleted by retention continue at the earliest kept', async () => {
  await k.createTopic('tx', 1);
  await k.produceTransactions('tx', [JSON.stringify({ n: 1 }), JSON.stringify({ n: 2 })], [JSON.stringify({ n: 3 })]);
  const config = { bootstrap_servers: [k.bootstrap], topics: ['tx'], idle_timeout_ms: 600_000 };
  const r = await readAll(config);
  assert.deepEqual(ns(r.rows), [1, 2], 'committed messages only');
  assert.deepEqual(r.state.tx!.partitions, await k.highWaterMarks('tx'), 'the run reached the mark past the markers (it would otherwise wait 10 minutes)');

  await k.createTopic('retained', 1);
  await k.produce('retained', msgs(1, 30));
  await k.deleteBefore('retained', 0, 10);
  const saved = { retained: { topic: 'retained', partitions: { '0': 4 } } };
  const after = await readAll({ bootstrap_servers: [k.bootstrap], topics: ['retained'] }, saved);
  assert.deepEqual(ns(after.rows), range(11, 30));
  assert.ok(after.logs.some((l) => l.level === 'warn' && /retained\/0: 6 message\(s\) from offset 4 were deleted by the topic's retention before they were read; reading from 10/.test(l.msg)));
});

test('kafka: a group shared with other active consumers fails naming group_id', async () => {
  await k.createTopic('shared', 2);
  await k.produce('shared', msgs(1, 10));
  const other = k.kafka.consumer({ groupId: 'basin-shared', sessionTimeout: 6_000, heartbeatInterval: 500, maxWaitTimeInMs: 100 });
  await other.connect();
  await other.subscribe({ topics: ['shared'] });
  await other.run({ eachBatch: async () => undefined });
  try {
    await assert.rejects(readAll({ bootstrap_servers: [k.bootstrap], topics: ['shared'], session_timeout_ms: 6_000 }, {}, {}, 'shared'), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'group_busy');
      assert.match(e.message, /The consumer group basin-shared has other active members: partition\(s\) shared\/\d went to them\. Give this source a group_id of its own/);
      return true;
    });
  } finally {
    await other.disconnect();
  }
});

test('kafka: an unreachable broker, a refused SASL password (PLAIN and SCRAM), a missing variable and a missing topic say what to fix, never the password', async () => {
  const closed = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
  const down = await source.check(createTestContext(source, { bootstrap_servers: [`127.0.0.1:${closed}`], connection_timeout_ms: 1000 }));
  assert.equal(down.ok, false);
  assert.match(down.message ?? '', new RegExp(`Could not reach the Kafka broker 127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)\\. Check bootstrap_servers in the config`));

  const sasl = { bootstrap_servers: [k.saslBootstrap], security_protocol: 'sasl_plaintext', username: k.saslUser, topics: ['clicks'] };
  const wrong = 'wrong-password-9c1e';
  const refused = await source.check(createTestContext(source, sasl, { env: { KAFKA_PASSWORD: wrong } }));
  assert.equal(refused.ok, false);
  assert.match(refused.message ?? '', /refused the SASL PLAIN login of user "basin"\. Check the password in the environment variable KAFKA_PASSWORD/);
  const good = await source.check(createTestContext(source, sasl, { env: { KAFKA_PASSWORD: k.saslPassword } }));
  assert.equal(good.ok, true, good.message);
  const viaSasl = await readAll(sasl, {}, { KAFKA_PASSWORD: k.saslPassword }, 'sasl');
  assert.ok(viaSasl.rows.length >= 300, 'reads through SASL/PLAIN');

  for (const mechanism of ['scram-sha-256', 'scram-sha-512']) {
    const scram = { ...sasl, sasl_mechanism: mechanism };
    const no = await source.check(createTestContext(source, scram, { env: { KAFKA_PASSWORD: wrong } }));
    assert.match(no.message ?? '', new RegExp(`refused the SASL ${mechanism.toUpperCase()} login of user "basin"\\. Check the password in the environment variable KAFKA_PASSWORD`));
    const yes = await source.check(createTestContext(source, scram, { env: { KAFKA_PASSWORD: k.saslPassword } }));
    assert.equal(yes.ok, true, `${mechanism}: ${yes.message}`);
  }

  const novar = await source.check(createTestContext(source, { ...sasl, password_env: 'MY_KAFKA_SECRET' }, { env: {} }));
  assert.equal(novar.ok, false);
  assert.match(novar.message ?? '', /MY_KAFKA_SECRET/);
  const missing = await source.check(createTestContext(source, { bootstrap_servers: [k.bootstrap], topics: ['clicks', 'nope'] }));
  assert.match(missing.message ?? '', /Topic\(s\) nope do not exist on the Kafka broker .*Check topics in the config \(topics there: .*clicks/);
  // (Kafka itself refuses a.b beside a_b; case is where names can still meet)
  await k.createTopic('ORDERS.v1', 1);
  const clash = await source.check(createTestContext(source, { bootstrap_servers: [k.bootstrap], topics: ['orders.v1', 'ORDERS.v1'] }));
  assert.match(clash.message ?? '', /Topics orders\.v1 and ORDERS\.v1 would both load into the table orders_v1; list only one of them in topics/);
  for (const m of [down.message, refused.message, novar.message, missing.message]) {
    assert.doesNotMatch(m ?? '', new RegExp(wrong));
    assert.doesNotMatch(m ?? '', new RegExp(k.saslPassword));
  }
  await assert.rejects(
    readAll({ bootstrap_servers: [`127.0.0.1:${closed}`], connection_timeout_ms: 1000 }),
    (e: Error) => /Could not reach/.test(e.message),
  );
});

test('kafka over TLS: an untrusted certificate names ssl_ca_file; with the CA the read works', async () => {
  const tls = { bootstrap_servers: [k.sslBootstrap!], security_protocol: 'ssl', topics: ['orders.v1'], connection_timeout_ms: 3000 };
  const untrusted = await source.check(createTestContext(source, tls));
  assert.equal(untrusted.ok, false);
  assert.match(untrusted.message ?? '', /presented a TLS certificate this machine does not trust \([A-Z_]+\)\. Set ssl_ca_file in the config/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-kafka-tls-'));
  fs.writeFileSync(path.join(dir, 'ca.pem'), k.caPem!);
  const nofile = await source.check(createTestContext(source, { ...tls, ssl_ca_file: 'certs/none.pem' }, { projectDir: dir }));
  assert.match(nofile.message ?? '', /ssl_ca_file certs\/none\.pem cannot be read/);
  const ctx = createTestContext(source, { ...tls, ssl_ca_file: 'ca.pem' }, { projectDir: dir, name: 'tls' });
  const ok = await source.check(ctx);
  assert.equal(ok.ok, true, ok.message);
  let n = 0;
  for await (const item of source.read(ctx, await source.discover(ctx), {}) as AsyncIterable<ReadItem>) if (item.kind === 'records') n += item.records.length;
  assert.equal(n, 20, 'every message of orders.v1 through TLS');
  fs.rmSync(dir, { recursive: true, force: true });
});

function project(topic: string) {
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"
sources:
  - name: stream
    type: kafka
    generic_config:
      bootstrap_servers: ["${k.bootstrap}"]
      topics: [${topic}]
      session_timeout_ms: 6000
`,
  });
  disableAuth(dir);
  return dir;
}
async function boot(dir: string) {
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<{ state(s: string): State }>('syncStore') };
}
async function close(app: BasinApp) {
  await app.close();
  apps.splice(apps.indexOf(app), 1);
}

test('kafka through the sync engine: a table per topic, the second sync loads only new messages, the group offsets follow the commit', async () => {
  await k.createTopic('app-events', 2);
  await k.produce('app-events', msgs(1, 40, 'app'));
  const { app, engine } = await boot(project('app-events'));
  const first = await engine.run('stream', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  assert.deepEqual(first.tables.map((t) => [t.name, t.rows]), [['app_events', 40]]);
  assert.deepEqual(await k.groupOffsets('basin-stream', 'app-events'), await k.highWaterMarks('app-events'));
  await k.produce('app-events', msgs(41, 45, 'app'));
  const second = await engine.run('stream', { trigger: 'cli' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  assert.equal(second.tables.find((t) => t.name === 'app_events')?.rows, 5);
  const r = await app.warehouse.query(`SELECT count(*)::INT AS n, count(DISTINCT value->>'$.n')::INT AS d, count(DISTINCT kafka_partition)::INT AS p, min(kafka_timestamp) IS NOT NULL AS t FROM raw_stream.app_events`);
  assert.deepEqual(r, [{ n: 45, d: 45, p: 2, t: true }]);
  assert.deepEqual(await k.groupOffsets('basin-stream', 'app-events'), await k.highWaterMarks('app-events'));
  await close(app);
});

test('kafka: a sync killed with SIGKILL mid-load keeps the previous table, Basin offsets and group offsets; the next sync loses and repeats nothing', async () => {
  const BEFORE = 20_000;
  const TOTAL = 140_000;
  await k.createTopic('big', 3);
  await k.produce('big', msgs(1, BEFORE, 'big'));
  const dir = project('big');
  let b = await boot(dir);
  const first = await b.engine.run('stream', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  const stateBefore = b.store.state('stream');
  const groupBefore = await k.groupOffsets('basin-stream', 'big');
  assert.deepEqual(groupBefore, await k.highWaterMarks('big'));
  await close(b.app);

  await k.produce('big', msgs(BEFORE + 1, TOTAL, 'big'));
  // the child stages rows (a first flush of the load) and is killed while it goes on reading
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'support/kill-child.ts'), dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('STAGED') && resolve());
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  b = await boot(dir);
  const kept = await b.app.warehouse.query<{ n: number }>('SELECT count(*)::INT AS n FROM raw_stream.big');
  assert.equal(kept[0]!.n, BEFORE, 'the previous table is intact');
  assert.deepEqual(b.store.state('stream'), stateBefore, "Basin's saved offsets are intact");
  assert.deepEqual(await k.groupOffsets('basin-stream', 'big'), groupBefore, 'the group offsets did not move');
  // the killed consumer is still a member until its session times out (6 s here); the next sync waits for that
  const next = await b.engine.run('stream', { trigger: 'cli' });
  assert.equal(next.status, 'succeeded', next.error ?? '');
  const r = await b.app.warehouse.query<{ n: number; d: number; o: number; lo: number; hi: number }>(
    `SELECT count(*)::INT AS n, count(DISTINCT (value->>'$.n'))::INT AS d, count(DISTINCT (kafka_partition, kafka_offset))::INT AS o, min((value->>'$.n')::INT) AS lo, max((value->>'$.n')::INT) AS hi FROM raw_stream.big`,
  );
  assert.deepEqual(r[0], { n: TOTAL, d: TOTAL, o: TOTAL, lo: 1, hi: TOTAL }, 'every message exactly once');
  assert.deepEqual(await k.groupOffsets('basin-stream', 'big'), await k.highWaterMarks('big'));
  await close(b.app);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('kafka: the config example of docs/source-types.md is valid', () => {
  const doc = fs.readFileSync(path.join(here, '../../../docs/source-types.md'), 'utf8');
  const block = /## kafka\n\n```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'docs/source-types.md has a kafka example');
  const [entry] = parse(block) as { type: string; generic_config: Record<string, unknown> }[];
  assert.equal(entry!.type, 'kafka');
  const ctx = createTestContext(source, entry!.generic_config, { env: { KAFKA_PASSWORD: 'x' } });
  assert.deepEqual(source.validateConfig!(ctx.config), []);
  assert.equal(ctx.config.security_protocol, 'sasl_ssl');
});
