// The mongodb source against a real MongoDB wire-protocol server (FerretDB v1 on SQLite, built by
// scripts/setup.d/60-ferretdb.mjs; one server for this file, with authentication on): the SDK
// contract kit, loads through the sync engine with nested documents, second syncs that read only what
// is new (by a field with ties, and by _id), a SIGKILL in the middle of a sync, and connection errors
// that name what to fix without the password.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { Binary, BSONRegExp, Decimal128, Long, MongoClient, ObjectId, Timestamp, UUID } from 'mongodb';
import { startFerretdb } from '../../../test/support/ferretdb.js';
import source from '../src/index.js';
import { documentRow } from '../src/values.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = await startFerretdb();
const admin = new MongoClient(server.urlFor(server.username, server.password));
await admin.connect();
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  await admin.close();
  await server.stop();
});

const T0 = Date.parse('2024-01-01T00:00:00Z');
const minute = (n: number) => new Date(T0 + n * 60_000);

/** orders whose updated_at values repeat (ten per minute), so the cursor must break ties by _id */
function orders(from: number, to: number) {
  const out = [];
  for (let i = from; i <= to; i++) {
    out.push({ n: i, customer: { name: `c${i}`, address: { city: i % 2 ? 'Lyon' : 'Paris', geo: { lat: 45.7, lon: 4.8 } } }, items: [{ sku: `s${i % 7}`, qty: (i % 3) + 1 }], total: i * 1.25, updated_at: minute(Math.floor(i / 10)) });
  }
  return out;
}

const env = {
  SHOP_URL: server.urlFor(server.username, server.password, 'shop'),
  BAD_URL: server.urlFor(server.username, 'wrong-password', 'shop'),
  MONGO_PASSWORD: server.password,
  WRONG_PW: 'not-the-pa55word',
};

{
  const shop = admin.db('shop');
  await shop.collection('orders').insertMany(orders(1, 2500));
  await shop.collection('events').insertMany(Array.from({ length: 40 }, (_, i) => ({ seq: i + 1, kind: 'view' })));
}

runSourceContract(
  source,
  { connection_url_env: 'SHOP_URL', collections: ['orders', 'events'], incremental: { orders: 'updated_at', events: '_id' }, batch_size: 1000 },
  {
    env,
    maxBatch: 1000,
    failingConfig: { connection_url_env: 'BAD_URL', collections: ['orders'] },
    async addData() {
      await admin.db('shop').collection('orders').insertOne(orders(2501, 2501)[0]!);
      await admin.db('shop').collection('events').insertMany([{ seq: 41, kind: 'click' }, { seq: 42, kind: 'click' }]);
    },
  },
);

describe('mongodb errors', () => {
  test('a wrong password names the variable to fix and never the password', async () => {
    const ctx = createTestContext(source, { host: '127.0.0.1', port: server.port, username: server.username, password_env: 'WRONG_PW', database: 'shop' }, { env });
    const res = await source.check(ctx);
    assert.equal(res.ok, false);
    assert.match(res.message ?? '', new RegExp(`MongoDB at 127\\.0\\.0\\.1:${server.port} rejected user "${server.username}" \\(auth_source admin\\): authentication failed\\. Check the environment variable WRONG_PW`));
    assert.doesNotMatch(res.message ?? '', /not-the-pa55word/);
    const it = source.read(ctx, [{ name: 'orders' }], {})[Symbol.asyncIterator]();
    await assert.rejects(it.next(), (e: Error & { code?: string }) => e.code === 'auth_failed' && !e.message.includes('not-the-pa55word'));
    // the same through a URL: the variable holding it is named, neither the URL nor its password shown
    const viaUrl = await source.check(createTestContext(source, { connection_url_env: 'BAD_URL' }, { env }));
    assert.match(viaUrl.message ?? '', /rejected the user in BAD_URL: authentication failed\. Check the environment variable BAD_URL/);
    assert.doesNotMatch(viaUrl.message ?? '', /wrong-password|mongodb:\/\/basin_admin/);
  });

  test('an unreachable host names host and port; no login, a missing database setting and a missing collection say what to set', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const unreachable = await source.check(createTestContext(source, { host: '127.0.0.1', port: closed, username: 'u', password_env: 'MONGO_PASSWORD', database: 'shop', connect_timeout_seconds: 2 }, { env }));
    assert.equal(unreachable.ok, false);
    assert.match(unreachable.message ?? '', new RegExp(`Could not reach MongoDB at 127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)\\. Check host and port in the config`));
    assert.doesNotMatch(unreachable.message ?? '', new RegExp(server.password));
    const viaUrl = await source.check(createTestContext(source, { connection_url_env: 'U', connect_timeout_seconds: 2 }, { env: { U: `mongodb://u:${server.password}@127.0.0.1:${closed}/shop` } }));
    assert.match(viaUrl.message ?? '', new RegExp(`Could not reach MongoDB at mongodb://127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)\\. Check the host and port in U`));
    assert.doesNotMatch(viaUrl.message ?? '', new RegExp(server.password));

    const anonymous = await source.check(createTestContext(source, { host: '127.0.0.1', port: server.port, database: 'shop' }, { env }));
    assert.equal(anonymous.ok, false);
    assert.match(anonymous.message ?? '', /requires a login: set username and password_env/);
    const noDb = await source.check(createTestContext(source, { connection_url_env: 'U' }, { env: { U: server.urlFor(server.username, server.password) } }));
    assert.match(noDb.message ?? '', /set database .* or put it in the URL of U/);
    const missing = await source.check(createTestContext(source, { connection_url_env: 'SHOP_URL', collections: ['Orders'] }, { env }));
    assert.match(missing.message ?? '', /Collection "Orders" \(collections\) was not found in database "shop"; did you mean "orders"\?/);
    const problems = source.validateConfig!({ ...(createTestContext(source, {}, { env }).config as object), username: 'u' } as never);
    assert.deepEqual(problems.map((p) => p.path), ['/connection_url_env', '/password_env']);
  });
});

test('documents become flat rows: BSON types the test server cannot store are converted too', () => {
  // FerretDB v1 refuses Decimal128 (it closes the connection), so these conversions are checked here
  const row = documentRow({
    _id: { region: 'eu', n: 1 },
    price: Decimal128.fromString('12345678901234567890.123'),
    ts: new Timestamp({ t: 1700000000, i: 3 }),
    re: new BSONRegExp('^a.c$', 'i'),
    big: Long.fromString('-9007199254740993'),
    nan: Number.NaN,
    a: { b: { c: { d: 1 } }, list: [new ObjectId('65a1b2c3d4e5f60718293a4b'), new Date('2024-01-01T00:00:00Z')] },
  });
  assert.deepEqual(row, {
    _id: '{"region":"eu","n":1}',
    price: '12345678901234567890.123',
    ts__t: 1700000000,
    ts__i: 3,
    re: '/^a.c$/i',
    big: '-9007199254740993',
    nan: null,
    a__b__c: '{"d":1}',
    a__list: '["65a1b2c3d4e5f60718293a4b","2024-01-01T00:00:00.000Z"]',
  });
});

test('a dotted cursor field with ties resumes exactly after the saved position; lookback_days re-reads the last days of a date cursor', async () => {
  const col = admin.db('docs').collection('notes');
  const day = (d: number) => new Date(T0 + d * 86_400_000);
  // five notes per day over ten days, the cursor inside a nested document
  await col.insertMany(Array.from({ length: 50 }, (_, i) => ({ i, meta: { updated: day(Math.floor(i / 5)) } })));
  const cfg = { connection_url_env: 'DOCS_URL', incremental: { notes: 'meta.updated' }, batch_size: 7 };
  const opts = { env: { DOCS_URL: server.urlFor(server.username, server.password, 'docs') } };
  const resources = [{ name: 'notes' }];
  const first = await collectRead(source, createTestContext(source, cfg, opts), resources);
  assert.equal(first.records.notes!.length, 50);
  assert.ok(first.items.filter((x) => x.kind === 'records').every((x) => x.kind === 'records' && x.records.length <= 7));
  assert.equal(first.state.notes!.last_value, day(9).toISOString());
  assert.ok('meta__updated' in first.records.notes![0]!, 'the nested cursor field is flattened like the rest');

  // a state saved in the middle of a day (after the third of its five notes) reads the other two and the later days
  const third = await col.find({ i: 22 }).next();
  const { BSON } = await import('mongodb');
  const position = { cursor_field: 'meta.updated', last_value: day(4).toISOString(), position: BSON.EJSON.stringify({ v: day(4), id: third!._id }, { relaxed: false }) };
  const resumed = await collectRead(source, createTestContext(source, cfg, opts), resources, { notes: position });
  assert.deepEqual(resumed.records.notes!.map((r) => r.i), Array.from({ length: 27 }, (_, k) => 23 + k));

  await col.insertOne({ i: 50, meta: { updated: day(9) } });
  const next = await collectRead(source, createTestContext(source, cfg, opts), resources, first.state);
  assert.deepEqual(next.records.notes!.map((r) => r.i), [50], 'only the new note, though it shares the last day');
  const back = await collectRead(source, createTestContext(source, cfg, { ...opts, lookbackDays: 2 }), resources, first.state);
  assert.deepEqual(back.records.notes!.map((r) => r.i), Array.from({ length: 16 }, (_, k) => 35 + k), 'days 7, 8 and 9 again (merged on _id by the engine)');
});

function project(name: string, block: string) {
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: ${name}\n    type: mongodb\n    generic_config:\n${block}`,
    '.env': `MONGO_PASSWORD=${server.password}\n`,
  });
  disableAuth(dir);
  return dir;
}

async function boot(dir: string) {
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<{ state(s: string): unknown; history(s: string, n: number): { items: { status: string; error?: string }[] } }>('syncStore') };
}

const count = async (app: BasinApp, sql: string) => (await app.warehouse.query<{ n: number }>(sql))[0]!.n;

test('through the sync engine: nested documents flattened like the REST vendors, BSON types kept, then second syncs read only the new documents (by a field with ties, by _id)', async () => {
  const crm = admin.db('crm');
  const uuid = new UUID('0b6f3a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b');
  await crm.collection('customers').insertMany([
    {
      _id: 1 as never,
      name: 'Ada',
      big: Long.fromString('9007199254740993'),
      small: Long.fromNumber(42),
      uid: uuid,
      blob: new Binary(Buffer.from('hi')),
      oid: new ObjectId('65a1b2c3d4e5f60718293a4b'),
      born: new Date('1990-05-17T00:00:00Z'),
      address: { city: 'Paris', geo: { lat: 48.85, lon: 2.35, extra: { deep: true } } },
      tags: ['a', { b: 1 }],
      nothing: null,
    },
    { _id: 2 as never, name: 'Bob', address: { city: 'Lyon' }, vip: true },
  ]);
  await crm.collection('orders').insertMany(orders(1, 300));
  await crm.collection('events').insertMany(Array.from({ length: 25 }, (_, i) => ({ seq: i + 1, payload: { k: i } })));
  await crm.createCollection('system.hidden').catch(() => undefined);

  const dir = project('crm_mongo', `      host: 127.0.0.1\n      port: ${server.port}\n      username: ${server.username}\n      password_env: MONGO_PASSWORD\n      database: crm\n      incremental:\n        orders: updated_at\n        events: _id\n      batch_size: 70\n`);
  const { app, engine, store } = await boot(dir);
  const first = await engine.run('crm_mongo', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  assert.deepEqual(first.tables.map((t) => [t.name, t.rows]).sort(), [['customers', 2], ['events', 25], ['orders', 300]]);

  const cols = await app.warehouse.query<{ column_name: string; data_type: string }>(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'raw_crm_mongo' AND table_name = 'customers' AND column_name NOT LIKE '_basin%' ORDER BY column_name`);
  const names = cols.map((c) => c.column_name);
  const types = Object.fromEntries(cols.map((c) => [c.column_name, c.data_type]));
  assert.match(types.born!, /^TIMESTAMP/, JSON.stringify(types));
  assert.equal(types.big, 'VARCHAR', 'an Int64 beyond 2^53 is exact text');
  for (const c of ['_id', 'name', 'big', 'small', 'uid', 'blob', 'oid', 'born', 'address__city', 'address__geo__lat', 'address__geo__extra', 'tags', 'nothing', 'vip']) assert.ok(names.includes(c), `column ${c} in ${names.join(', ')}`);
  assert.ok(!names.includes('address__geo__extra__deep'), 'three levels at most, deeper objects are JSON text');
  const ada = await app.warehouse.query<Record<string, unknown>>(
    `SELECT _id::INT AS id, big::VARCHAR AS big, small::INT AS small, uid::VARCHAR AS uid, blob::VARCHAR AS blob, oid::VARCHAR AS oid, strftime(born::TIMESTAMP, '%Y-%m-%d') AS born, address__city AS city, address__geo__lat::DOUBLE AS lat, address__geo__extra::VARCHAR AS extra, tags::VARCHAR AS tags FROM raw_crm_mongo.customers ORDER BY _id`,
  );
  assert.deepEqual(ada[0], {
    id: 1,
    big: '9007199254740993',
    small: 42,
    uid: '0b6f3a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    blob: 'aGk=',
    oid: '65a1b2c3d4e5f60718293a4b',
    born: '1990-05-17',
    city: 'Paris',
    lat: 48.85,
    extra: '{"deep":true}',
    tags: '["a",{"b":1}]',
  });
  assert.equal(ada[1]!.city, 'Lyon');
  const orderCols = await app.warehouse.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'raw_crm_mongo' AND table_name = 'orders' ORDER BY ordinal_position`);
  assert.ok(['customer__name', 'customer__address__city', 'customer__address__geo', 'items', 'updated_at'].every((c) => orderCols.some((x) => x.column_name === c)));
  const saved = (store.state('crm_mongo') as Record<string, { cursor_field: string; last_value: unknown }>).orders!;
  assert.equal(saved.cursor_field, 'updated_at');
  assert.equal(saved.last_value, minute(30).toISOString());

  // new documents: one sharing the last updated_at (a tie broken by _id), two later ones, one old
  // order updated; two new events; one customer more (customers are replaced whole)
  const o = crm.collection('orders');
  await o.insertMany([{ ...orders(300, 300)[0]!, n: 3001 }, ...orders(301, 302)]);
  await o.updateOne({ n: 5 }, { $set: { total: 999, updated_at: minute(100) } });
  await crm.collection('events').insertMany([{ seq: 26 }, { seq: 27 }]);
  await crm.collection('customers').insertOne({ _id: 3 as never, name: 'Cy' });
  const second = await engine.run('crm_mongo', { trigger: 'cli' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  const rows = Object.fromEntries(second.tables.map((t) => [t.name, t.rows]));
  assert.equal(rows.orders, 4, 'only the tie, the two new and the updated order were read');
  assert.equal(rows.events, 2, 'only the two new events were read');
  assert.equal(await count(app, 'SELECT count(*)::INT AS n FROM raw_crm_mongo.orders'), 303);
  assert.equal(await count(app, 'SELECT count(DISTINCT _id)::INT AS n FROM raw_crm_mongo.orders'), 303);
  assert.equal(await count(app, 'SELECT total::INT AS n FROM raw_crm_mongo.orders WHERE n = 5'), 999);
  assert.equal(await count(app, 'SELECT count(*)::INT AS n FROM raw_crm_mongo.events'), 27);
  assert.equal(await count(app, 'SELECT count(*)::INT AS n FROM raw_crm_mongo.customers'), 3);

  const third = await engine.run('crm_mongo', { trigger: 'cli' });
  assert.equal(third.status, 'succeeded', third.error ?? '');
  const again = Object.fromEntries(third.tables.map((t) => [t.name, t.rows]));
  assert.equal(again.orders ?? 0, 0, 'nothing new, nothing read');
  assert.equal(again.events ?? 0, 0);
  assert.equal(await count(app, 'SELECT count(*)::INT AS n FROM raw_crm_mongo.orders'), 303);

  // a full refresh reads everything again, without duplicates
  const full = await engine.run('crm_mongo', { trigger: 'cli', fullRefresh: true });
  assert.equal(full.status, 'succeeded', full.error ?? '');
  assert.equal(await count(app, 'SELECT count(*)::INT AS n FROM raw_crm_mongo.orders'), 303);
});

test('through the sync engine, a refused login fails the sync naming the variable, with the password nowhere in the error', async () => {
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: bad_mongo\n    type: mongodb\n    generic_config:\n      host: 127.0.0.1\n      port: ${server.port}\n      username: ${server.username}\n      password_env: MONGO_PASSWORD\n      database: shop\n`,
    '.env': 'MONGO_PASSWORD=s3cret-but-wrong\n',
  });
  disableAuth(dir);
  const { engine } = await boot(dir);
  const r = await engine.run('bad_mongo', { trigger: 'cli' });
  assert.equal(r.status, 'failed');
  assert.match(r.error ?? '', /authentication failed\. Check the environment variable MONGO_PASSWORD/);
  assert.doesNotMatch(r.error ?? '', /s3cret-but-wrong/);
});

test('a SIGKILL in the middle of a sync keeps the previous tables and cursor; the next sync neither loses nor duplicates a document', async () => {
  const db = admin.db('stream');
  const seq = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i, at: minute(from + i), user: { id: (from + i) % 50 } }));
  await db.collection('clicks').insertMany(seq(1, 1000));
  await db.collection('views').insertMany(seq(1, 1000));
  const dir = project('stream_mongo', `      host: 127.0.0.1\n      port: ${server.port}\n      username: ${server.username}\n      password_env: MONGO_PASSWORD\n      database: stream\n      collections: [clicks, views]\n      incremental:\n        clicks: _id\n        views: seq\n      batch_size: 200\n`);
  let b = await boot(dir);
  const first = await b.engine.run('stream_mongo');
  assert.equal(first.status, 'succeeded', first.error ?? '');
  const stateBefore = b.store.state('stream_mongo');
  await b.app.close();
  apps.splice(apps.indexOf(b.app), 1);

  await db.collection('clicks').insertMany(seq(1001, 5000));
  await db.collection('views').insertMany(seq(1001, 5000));
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'support/kill-child.ts'), dir, 'stream_mongo'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('READING') && resolve());
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  // freeze the server so the read cannot go on, then kill the syncing process mid-read
  process.kill(server.pid, 'SIGSTOP');
  try {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  } finally {
    process.kill(server.pid, 'SIGCONT');
  }

  b = await boot(dir);
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_stream_mongo.clicks'), 1000);
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_stream_mongo.views'), 1000);
  assert.equal(await count(b.app, "SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'"), 0);
  assert.deepEqual(b.store.state('stream_mongo'), stateBefore);
  const hist = b.store.history('stream_mongo', 10).items;
  assert.equal(hist[0]!.status, 'failed');
  assert.match(hist[0]!.error ?? '', /interrupted/);

  const next = await b.engine.run('stream_mongo');
  assert.equal(next.status, 'succeeded', next.error ?? '');
  assert.deepEqual(next.tables.map((t) => [t.name, t.rows]).sort(), [['clicks', 4000], ['views', 4000]]);
  for (const t of ['clicks', 'views']) {
    const got = (await b.app.warehouse.query<{ n: number; d: number; lo: number; hi: number }>(`SELECT count(*)::INT AS n, count(DISTINCT seq)::INT AS d, min(seq)::INT AS lo, max(seq)::INT AS hi FROM raw_stream_mongo.${t}`))[0];
    assert.deepEqual(got, { n: 5000, d: 5000, lo: 1, hi: 5000 }, t);
  }
});
