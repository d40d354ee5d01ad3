// kinesis against kinesalite (the Kinesis API from npm, in memory) through @aws-sdk/client-kinesis:
// the SDK contract kit, reads from saved sequence numbers, a bounded run, resharding (split and
// merge) without loss or duplicates, the sync engine, and errors that say what to fix.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { createTestContext, runSourceContract } from '@basin/sdk/testkit';
import type { ReadItem } from '@basin/sdk';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import source from '../src/index.js';
import { ARRIVAL_MARGIN_MS } from '../src/read.js';
import { killMidSync } from '../../../test/support/sync-kill.js';
import { KEYS, startKinesalite } from './kinesalite-fixture.js';

const k = await startKinesalite();
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  await k.stop();
});

const rows = (from: number, to: number, tag = 'e') => Array.from({ length: to - from + 1 }, (_, i) => ({ key: `k${from + i}`, data: JSON.stringify({ n: from + i, tag }) }));

await k.createStream('clicks', 2);
await k.put('clicks', rows(1, 300));
await k.createStream('orders.v1', 1);
await k.put('orders.v1', rows(1, 20, 'o'));

runSourceContract(source, { endpoint: k.endpoint, streams: ['clicks', 'orders.v1'], max_records_per_call: 100 }, {
  env: KEYS,
  maxBatch: 100,
  failingConfig: { endpoint: k.endpoint, streams: ['no-such-stream'] },
  async addData() {
    await k.put('clicks', rows(301, 310));
  },
});

async function readAll(config: Record<string, unknown>, state: Record<string, Record<string, unknown>> = {}) {
  const ctx = createTestContext(source, config, { env: KEYS });
  const resources = await source.discover(ctx);
  const out = { rows: [] as Record<string, unknown>[], state: { ...state } };
  for await (const item of source.read(ctx, resources, state) as AsyncIterable<ReadItem>) {
    if (item.kind === 'records') out.rows.push(...item.records);
    if (item.kind === 'state') out.state[item.resource] = item.state;
  }
  return out;
}
const ns = (rs: Record<string, unknown>[]) => rs.map((r) => (r.data as { n: number }).n).sort((a, b) => a - b);

test('kinesis: each read continues from the saved sequence numbers and resharding loses and repeats nothing', async () => {
  await k.createStream('resharded', 2);
  await k.put('resharded', rows(1, 100));
  const config = { endpoint: k.endpoint, streams: ['resharded'] };
  const first = await readAll(config);
  assert.deepEqual(ns(first.rows), Array.from({ length: 100 }, (_, i) => i + 1));

  // split one shard, write more (some before the split reached the parent, some after into the children)
  const [s0, s1] = await k.shardIds('resharded');
  await k.put('resharded', rows(101, 150));
  await k.split('resharded', s0!);
  await k.put('resharded', rows(151, 250));
  const second = await readAll(config, first.state);
  assert.deepEqual(ns(second.rows), Array.from({ length: 150 }, (_, i) => i + 101), 'exactly the records written since the first read');
  const saved = (second.state.resharded as { shards: Record<string, { finished?: boolean }> }).shards;
  assert.equal(saved[s0!]?.finished, true, 'the split parent is read to its end and marked finished');
  assert.equal(Object.keys(saved).length, 4, 'both children and the other shard have positions');

  // merge the two children of the split, write more
  const children = (await k.shardIds('resharded')).filter((id) => id !== s0 && id !== s1);
  await k.merge('resharded', children[0]!, children[1]!);
  await k.put('resharded', rows(251, 300));
  const third = await readAll(config, second.state);
  assert.deepEqual(ns(third.rows), Array.from({ length: 50 }, (_, i) => i + 251));

  const fourth = await readAll(config, third.state);
  assert.equal(fourth.rows.length, 0, 'nothing new, nothing read');
});

test('kinesis: a run is bounded by what had arrived when it started', async () => {
  await k.createStream('busy', 1);
  await k.put('busy', rows(1, 50));
  const ctx = createTestContext(source, { endpoint: k.endpoint, streams: ['busy'], max_records_per_call: 10 }, { env: KEYS });
  const resources = await source.discover(ctx);
  let read = 0;
  let wrote = false;
  for await (const item of source.read(ctx, resources, {}) as AsyncIterable<ReadItem>) {
    if (item.kind !== 'records') continue;
    read += item.records.length;
    if (!wrote) {
      // a producer keeps writing while the sync reads: those records wait for the next run
      wrote = true;
      await new Promise((r) => setTimeout(r, ARRIVAL_MARGIN_MS + 1_100));
      await k.put('busy', rows(51, 80));
    }
  }
  assert.equal(read, 50);
});

test('kinesis: refused keys, an unreachable endpoint, a missing stream and a missing key variable say what to fix, never the key', async () => {
  const closed = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
  const down = await source.check(createTestContext(source, { endpoint: `http://127.0.0.1:${closed}`, streams: ['clicks'] }, { env: KEYS }));
  assert.equal(down.ok, false);
  assert.match(down.message ?? '', new RegExp(`Could not reach http://127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)\\. Check endpoint and region`));
  const missing = await source.check(createTestContext(source, { endpoint: k.endpoint, streams: ['nope'] }, { env: KEYS }));
  assert.match(missing.message ?? '', /nope.*Check streams in the config/);
  const nokey = await source.check(createTestContext(source, { endpoint: k.endpoint, secret_access_key_env: 'MY_KINESIS_SECRET' }, { env: { AWS_ACCESS_KEY_ID: 'x' } }));
  assert.match(nokey.message ?? '', /MY_KINESIS_SECRET/);
  // kinesalite accepts any key, so the refusal comes from a stand-in answering like AWS does for an
  // unknown access key (HTTP 400, __type UnrecognizedClientException)
  const aws = http.createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': 'r1' });
    res.end(JSON.stringify({ __type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' }));
  });
  await new Promise<void>((r) => aws.listen(0, '127.0.0.1', r));
  const refused = await source.check(createTestContext(source, { endpoint: `http://127.0.0.1:${(aws.address() as net.AddressInfo).port}` }, { env: KEYS }));
  aws.close();
  assert.equal(refused.ok, false);
  assert.match(refused.message ?? '', /rejected the credentials \(UnrecognizedClientException\)\. Check the environment variables AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  for (const m of [down.message, missing.message, nokey.message, refused.message]) assert.doesNotMatch(m ?? '', new RegExp(KEYS.AWS_SECRET_ACCESS_KEY));
});

test('kinesis through the sync engine: one table per stream, the second sync loads only new records', async () => {
  await k.createStream('app-events', 2);
  await k.put('app-events', rows(1, 40, 'app'));
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"
sources:
  - name: stream
    type: kinesis
    generic_config:
      endpoint: ${k.endpoint}
      streams: [app-events]
`,
    '.env': `AWS_ACCESS_KEY_ID=${KEYS.AWS_ACCESS_KEY_ID}\nAWS_SECRET_ACCESS_KEY=${KEYS.AWS_SECRET_ACCESS_KEY}\n`,
  });
  disableAuth(dir);
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  const engine = app.container.resolve<SyncEngine>('syncEngine');
  const first = await engine.run('stream', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  assert.deepEqual(first.tables.map((t) => [t.name, t.rows]), [['app_events', 40]]);
  await k.put('app-events', rows(41, 45, 'app'));
  const second = await engine.run('stream', { trigger: 'cli' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  assert.equal(second.tables.find((t) => t.name === 'app_events')?.rows, 5);
  const r = await app.warehouse.query(`SELECT count(*)::INT AS n, count(DISTINCT data->>'$.n')::INT AS d, min(arrival_time) IS NOT NULL AS t FROM raw_stream.app_events`);
  assert.deepEqual(r, [{ n: 45, d: 45, t: true }]);
});

test('kinesis: a SIGKILL mid-sync keeps the previous table and shard positions; the next sync loses and repeats no record', async () => {
  await k.createStream('killed', 1);
  await k.put('killed', rows(1, 1000, 'k'));
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: kstream\n    type: kinesis\n    generic_config:\n      endpoint: ${k.endpoint}\n      streams: [killed]\n`,
    '.env': `AWS_ACCESS_KEY_ID=${KEYS.AWS_ACCESS_KEY_ID}\nAWS_SECRET_ACCESS_KEY=${KEYS.AWS_SECRET_ACCESS_KEY}\n`,
  });
  disableAuth(dir);
  const boot = async () => {
    const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
    return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<any>('syncStore') };
  };
  const counts = async (app: BasinApp) => (await app.warehouse.query<{ n: number; d: number }>(`SELECT count(*)::INT AS n, count(DISTINCT data->>'$.n')::INT AS d FROM raw_kstream.killed`))[0];
  let b = await boot();
  assert.equal((await b.engine.run('kstream')).status, 'succeeded');
  const stateBefore = b.store.state('kstream');
  assert.deepEqual(await counts(b.app), { n: 1000, d: 1000 });
  await b.app.close();

  // 60,000 new records: one 50,000-record batch reaches staging, the shard position is checkpointed, then the kill
  await k.put('killed', rows(1001, 61_000, 'k'));
  const held = await killMidSync(dir, 'kstream', 'kinesis', 1);
  assert.ok(held.staged >= 50_000, `a batch reached staging before the kill (${held.staged} records)`);

  b = await boot();
  try {
    assert.deepEqual(await counts(b.app), { n: 1000, d: 1000 }, 'the table of the first sync, untouched');
    assert.deepEqual(b.store.state('kstream'), stateBefore, 'the shard positions of the first sync');
    const stg = await b.app.warehouse.query<{ n: number }>("SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'");
    assert.equal(stg[0]!.n, 0);
    assert.equal(b.store.history('kstream', 10).items[0].status, 'failed');
    const again = await b.engine.run('kstream');
    assert.equal(again.status, 'succeeded', again.error ?? '');
    assert.deepEqual(await counts(b.app), { n: 61_000, d: 61_000 }, 'every new record once');
  } finally {
    await b.app.close();
  }
});
