// pg_replication against Debian's PostgreSQL (wal_level=logical): the SDK contract kit, and the
// errors that say what to fix: a wrong password, an unreachable host, wal_level and the role's
// REPLICATION attribute, never with a secret in them.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import { startPostgres } from '../../../test/support/postgres.js';
import source from '../src/index.js';
import { asReplicator, REPLICATOR, replicationServer } from './pg-fixture.js';

const pg = await replicationServer();
after(() => pg.stop());

asReplicator(
  pg,
  `CREATE TABLE orders (id bigserial PRIMARY KEY, customer text NOT NULL, total numeric(12,2), meta jsonb, updated_at timestamptz NOT NULL);
   INSERT INTO orders (customer, total, meta, updated_at) SELECT 'c' || g, g * 1.25, '{"k": 1}', timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute' FROM generate_series(1, 2500) g;
   CREATE TABLE events (seq int PRIMARY KEY, kind text);
   INSERT INTO events SELECT g, 'view' FROM generate_series(1, 40) g;`,
);

const env = {
  SHOP_URL: pg.urlFor(REPLICATOR.user, REPLICATOR.password, 'shop'),
  BAD_URL: pg.urlFor(REPLICATOR.user, 'wrong-password', 'shop'),
  SHOP_PASSWORD: REPLICATOR.password,
};
runSourceContract(
  source,
  { connection_url_env: 'SHOP_URL', tables: ['orders', 'events'], slot_name: 'contract_slot', chunk_size: 1000 },
  {
    env,
    maxBatch: 1000,
    failingConfig: { connection_url_env: 'BAD_URL', tables: ['orders'] },
    addData() {
      asReplicator(pg, `INSERT INTO orders (customer, total, updated_at) VALUES ('late', 9.99, '2024-06-01 12:00:00.123456+00'); INSERT INTO events VALUES (41, 'click'), (42, 'click');`);
    },
  },
);

test('a read streams the changes as rows with their LSN, in the order of the log', async () => {
  asReplicator(pg, 'CREATE TABLE seq_check (id int PRIMARY KEY, v int); INSERT INTO seq_check VALUES (1, 0);');
  const config = { connection_url_env: 'SHOP_URL', tables: ['seq_check'], slot_name: 'order_slot' };
  const first = await collectRead(source, createTestContext(source, config, { env }), await source.discover(createTestContext(source, config, { env })));
  asReplicator(pg, 'UPDATE seq_check SET v = 1; UPDATE seq_check SET v = 2; DELETE FROM seq_check; INSERT INTO seq_check VALUES (1, 3);');
  const second = await collectRead(source, createTestContext(source, config, { env }), await source.discover(createTestContext(source, config, { env })), first.state);
  const rows = second.records.seq_check ?? [];
  assert.deepEqual(rows.map((r) => [r.v ?? null, r._basin_deleted]), [[1, false], [2, false], [null, true], [3, false]]);
  const lsns = rows.map((r) => r._basin_lsn as number);
  assert.deepEqual([...lsns].sort((a, b) => a - b), lsns, 'LSNs grow with the log');
  assert.ok(lsns[0]! > (first.records.seq_check![0]!._basin_lsn as number), 'changes come after the snapshot');
  assert.notEqual(second.state.seq_check!.lsn, first.state.seq_check!.lsn);
  // the slot is not moved by a read: only the next read acknowledges what was committed
  const confirmed = pg.psql("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'order_slot'").trim();
  assert.equal(confirmed, first.state.seq_check!.lsn);
});

test('a wrong password names the variable to check and never shows the secret', async () => {
  const ctx = createTestContext(source, { host: pg.host, port: pg.port, database: 'shop', username: REPLICATOR.user, password_env: 'WRONG_PW' }, { env: { WRONG_PW: 'not-the-Password-123' } });
  const res = await source.check(ctx);
  assert.equal(res.ok, false);
  assert.match(res.message ?? '', /rejected user "replicator".*Check the environment variable WRONG_PW/);
  assert.ok(!(res.message ?? '').includes('not-the-Password-123'));
  await assert.rejects(collectRead(source, ctx, []), (e: Error) => /WRONG_PW/.test(e.message) && !e.message.includes('not-the-Password-123'));
});

test('an unreachable host says where it tried and what to check', async () => {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const ctx = createTestContext(source, { host: '127.0.0.1', port, database: 'shop', username: REPLICATOR.user, password_env: 'SHOP_PASSWORD' }, { env });
  const res = await source.check(ctx);
  assert.equal(res.ok, false);
  assert.match(res.message ?? '', new RegExp(`Could not reach PostgreSQL at 127\\.0\\.0\\.1:${port}/shop \\(ECONNREFUSED\\)\\. Check the host and port`));
  assert.ok(!(res.message ?? '').includes(REPLICATOR.password));
});

test('a role without REPLICATION and a server without wal_level=logical are told what to change', async () => {
  pg.psql("CREATE ROLE plain LOGIN PASSWORD 'plain-pass-1'");
  const plain = createTestContext(source, { connection_url_env: 'PLAIN_URL', tables: ['orders'] }, { env: { PLAIN_URL: pg.urlFor('plain', 'plain-pass-1', 'shop') } });
  const res = await source.check(plain);
  assert.equal(res.ok, false);
  assert.match(res.message ?? '', /ALTER ROLE plain REPLICATION/);

  const replica = await startPostgres();
  try {
    const ctx = createTestContext(source, { connection_url_env: 'R_URL' }, { env: { R_URL: replica.url } });
    const r = await source.check(ctx);
    assert.equal(r.ok, false);
    assert.match(r.message ?? '', /wal_level = replica; logical replication needs wal_level = logical in postgresql\.conf/);
  } finally {
    await replica.stop();
  }
});

test('a partitioned table replicates under its own name, and numeric NaN loads as NULL', async () => {
  asReplicator(pg, `CREATE TABLE measures (id int, region text, value numeric(10,2), PRIMARY KEY (id, region)) PARTITION BY LIST (region);
    CREATE TABLE measures_eu PARTITION OF measures FOR VALUES IN ('eu');
    CREATE TABLE measures_us PARTITION OF measures FOR VALUES IN ('us');
    INSERT INTO measures VALUES (1, 'eu', 1.5), (2, 'us', 'NaN');`);
  const config = { connection_url_env: 'SHOP_URL', tables: ['measures'], slot_name: 'part_slot' };
  const ctx = () => createTestContext(source, config, { env });
  const resources = await source.discover(ctx());
  assert.deepEqual(resources.map((r) => r.name), ['measures']);
  const first = await collectRead(source, ctx(), resources);
  assert.deepEqual(first.records.measures!.map((r) => [r.id, r.region, r.value]), [[1, 'eu', '1.50'], [2, 'us', null]]);
  asReplicator(pg, "INSERT INTO measures VALUES (3, 'us', 'NaN'); UPDATE measures SET value = 2 WHERE id = 1;");
  const second = await collectRead(source, ctx(), resources, first.state);
  assert.deepEqual(second.records.measures!.map((r) => [r.id, r.region, r.value]), [[3, 'us', null], [1, 'eu', '2.00']]);
});

test('a large value an update left unchanged: a warning naming the fix, and with REPLICA IDENTITY FULL the value itself', async () => {
  // ~20 kB of incompressible text: stored out of line (TOAST), so an update of another column does not log it
  asReplicator(pg, `CREATE TABLE docs (id int PRIMARY KEY, n int, body text);
    INSERT INTO docs SELECT g, 0, (SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 600)) FROM generate_series(1, 2) g;`);
  const config = { connection_url_env: 'SHOP_URL', tables: ['docs'], slot_name: 'toast_slot' };
  const ctx = () => createTestContext(source, config, { env });
  const resources = await source.discover(ctx());
  const first = await collectRead(source, ctx(), resources);
  assert.equal((first.records.docs![0]!.body as string).length, 19200);
  asReplicator(pg, 'UPDATE docs SET n = 1 WHERE id = 1; ALTER TABLE docs REPLICA IDENTITY FULL; UPDATE docs SET n = 1 WHERE id = 2;');
  const c = ctx();
  const second = await collectRead(source, c, resources, first.state);
  const rows = second.records.docs!;
  assert.deepEqual(rows.map((r) => [r.id, r.n, typeof r.body === 'string' ? r.body.length : r.body ?? null]), [[1, 1, null], [2, 1, 19200]]);
  assert.ok(c.logs.some((l) => /docs\.body: an update left this large \(TOASTed\) value unchanged.*REPLICA IDENTITY FULL/.test(l.msg)), JSON.stringify(c.logs));
});
