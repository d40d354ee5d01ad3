// sql_database against a real PostgreSQL: full and incremental reads, type mapping, batching,
// connection errors that name the variable to fix, and identifier-injection attempts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { SourceError } from '@basin/sdk';
import { collectRead, createTestContext } from '@basin/sdk/testkit';
import source from '../src/index.js';
import { READER, shopServer } from './pg-fixture.js';

const pg = await shopServer();
after(() => pg.stop());
const env = { SHOP_URL: pg.urlFor(READER.user, READER.password, 'shop'), PG_PASSWORD: READER.password };
const ctxFor = (config: Record<string, unknown>, opts: Parameters<typeof createTestContext>[2] = {}) =>
  createTestContext<any>(source, { connection_url_env: 'SHOP_URL', ...config }, { env, ...opts });

async function discoverAndRead(config: Record<string, unknown>, state: Record<string, Record<string, unknown>> = {}, opts: Parameters<typeof createTestContext>[2] = {}) {
  const ctx = ctxFor(config, opts);
  const resources = await source.discover(ctx);
  return { resources, ctx, ...(await collectRead(source, ctx, resources, state)) };
}

pg.psql(
  `CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL, vip boolean);
   INSERT INTO customers SELECT g, 'customer ' || g, g % 2 = 0 FROM generate_series(1, 10) g;
   CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int, amount numeric(12,2), updated_at timestamp NOT NULL);
   INSERT INTO orders VALUES (1, 1, 10.50, '2024-01-01 10:00:00'), (2, 2, 20.00, '2024-01-02 10:00:00'), (3, 3, 30.25, '2024-01-03 10:00:00.000001');
   CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 15;`,
  'shop',
);

describe('full read', () => {
  test('every table of the schema by default, all rows, replace disposition, typed columns and primary key', async () => {
    const { resources, records, state } = await discoverAndRead({});
    assert.deepEqual(resources.map((r) => r.name).sort(), ['customers', 'orders'], 'views are read only when listed');
    const customers = resources.find((r) => r.name === 'customers')!;
    assert.equal(customers.writeDisposition, 'replace');
    assert.deepEqual(customers.primaryKey, ['id']);
    assert.deepEqual(customers.columns, [
      { name: 'id', type: 'INTEGER', nullable: false },
      { name: 'name', type: 'VARCHAR', nullable: false },
      { name: 'vip', type: 'BOOLEAN', nullable: true },
    ]);
    assert.equal(records.customers!.length, 10);
    assert.deepEqual(records.customers![1], { id: 2, name: 'customer 2', vip: true });
    assert.equal(records.orders!.length, 3);
    assert.deepEqual(state, {}, 'a full table keeps no cursor state');
  });

  test('a listed view is read; batches hold at most chunk_size rows', async () => {
    const { records, items } = await discoverAndRead({ tables: ['big_orders', 'customers'], chunk_size: 3 });
    assert.deepEqual(records.big_orders!.map((r) => r.id).sort(), ['2', '3']);
    const sizes = items.filter((i) => i.kind === 'records' && i.resource === 'customers').map((i) => (i as { records: unknown[] }).records.length);
    assert.deepEqual(sizes, [3, 3, 3, 1]);
  });
});

describe('incremental read', () => {
  test('re-reading from the committed state gets only new and updated rows', async () => {
    pg.psql(`CREATE TABLE inc_orders (LIKE orders INCLUDING ALL); INSERT INTO inc_orders SELECT * FROM orders;`, 'shop');
    const config = { tables: ['inc_orders'], incremental: { inc_orders: 'updated_at' } };
    const first = await discoverAndRead(config);
    assert.equal(first.resources[0]!.writeDisposition, 'merge');
    assert.equal(first.resources[0]!.cursorField, 'updated_at');
    assert.equal(first.records.inc_orders!.length, 3);
    // the cursor keeps PostgreSQL's microseconds, so the row at .000001 is not read twice
    assert.deepEqual(first.state.inc_orders, { cursor_column: 'updated_at', last_value: '2024-01-03 10:00:00.000001' });

    const nothing = await discoverAndRead(config, first.state);
    assert.equal(nothing.dataItems, 0, 'nothing new, nothing read');

    pg.psql(`INSERT INTO inc_orders VALUES (4, 4, 40, '2024-01-04 09:00:00'); UPDATE inc_orders SET amount = 11, updated_at = '2024-01-05 00:00:00' WHERE id = 1;`, 'shop');
    const second = await discoverAndRead(config, first.state);
    assert.deepEqual(second.records.inc_orders!.map((r) => [r.id, r.amount]).sort(), [['1', '11.00'], ['4', '40.00']]);
    assert.equal(second.state.inc_orders!.last_value, '2024-01-05 00:00:00');

    const full = await discoverAndRead(config, second.state, { fullRefresh: true });
    assert.equal(full.records.inc_orders!.length, 4, 'a full refresh ignores the state');
  });

  test('lookback_days re-reads the last days of a timestamp cursor; integer cursors and initial_value', async () => {
    pg.psql(`CREATE TABLE inc_seq (seq int, note text); INSERT INTO inc_seq SELECT g, 'n' || g FROM generate_series(1, 20) g;`, 'shop');
    const config = { tables: ['inc_orders', 'inc_seq'], incremental: { inc_orders: 'updated_at', inc_seq: { cursor_column: 'seq', initial_value: 15 } } };
    const first = await discoverAndRead(config);
    assert.deepEqual(first.records.inc_seq!.map((r) => r.seq), [15, 16, 17, 18, 19, 20], 'initial_value is inclusive');
    assert.equal(first.resources.find((r) => r.name === 'inc_seq')!.writeDisposition, 'append', 'no primary key: append');
    assert.deepEqual(first.state.inc_seq, { cursor_column: 'seq', last_value: 20 });
    // state at 2024-01-05 00:00; a 2-day lookback brings back the rows after 2024-01-03 00:00
    const back = await discoverAndRead(config, first.state, { lookbackDays: 2 });
    assert.deepEqual(back.records.inc_orders!.map((r) => r.id).sort(), ['1', '3', '4']);
    assert.equal(back.records.inc_seq, undefined, 'lookback does not apply to integer cursors');
  });

  test('a changed cursor column reads the table again instead of comparing against the old column', async () => {
    const config = { tables: ['inc_orders'], incremental: { inc_orders: 'id' } };
    const r = await discoverAndRead(config, { inc_orders: { cursor_column: 'updated_at', last_value: '2030-01-01 00:00:00' } });
    assert.equal(r.records.inc_orders!.length, 4);
    assert.ok(r.ctx.logs.some((l) => l.level === 'warn' && l.msg.includes('cursor column changed')));
  });

  test('a cursor column that does not exist, or cannot order rows, is refused by name', async () => {
    await assert.rejects(discoverAndRead({ tables: ['orders'], incremental: { orders: 'modified' } }), (e: SourceError) => e.code === 'config_invalid' && /"modified"/.test(e.message));
    await assert.rejects(discoverAndRead({ tables: ['customers'], incremental: { customers: 'vip' } }), (e: SourceError) => e.code === 'config_invalid' && /boolean/.test(e.message));
    await assert.rejects(discoverAndRead({ tables: ['customers'], incremental: { orders: 'id' } }), (e: SourceError) => e.code === 'config_invalid' && /not in tables/.test(e.message));
  });
});

describe('type mapping', () => {
  test('pg types become DuckDB types and values keep their precision', async () => {
    pg.psql(
      `CREATE TYPE mood AS ENUM ('sad', 'happy');
       CREATE DOMAIN money_amount AS numeric(10,3);
       CREATE TABLE typed (
         big bigint, small smallint, num numeric(38,10), num_free numeric, price money_amount, f4 real, f8 double precision,
         ts timestamp, tstz timestamptz, d date, t time, iv interval, doc jsonb, j json, flag bool, txt text, vc varchar(5), ch char(3),
         u uuid, ints int[], tags text[], raw bytea, feeling mood, addr inet);
       INSERT INTO typed VALUES (
         9007199254740993, -7, 12345678901234567890.0123456789, 1.5, 2.125, 1.5, 0.1,
         '2024-02-29 23:59:59.999999', '2024-03-01 10:00:00.5+02', '2024-02-29', '13:14:15', '-1 year 2 mons -3 days 04:05:06',
         '{"a": [1, 2], "b": {"c": null}}', '[1, "x"]', true, 'hello', 'abc', 'ab', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
         '{1,2,NULL}', '{"x y",z}', '\\x0102ff', 'happy', '10.0.0.1');
       INSERT INTO typed (big) VALUES (NULL);`,
      'shop',
    );
    const { resources, records } = await discoverAndRead({ tables: ['typed'] });
    const types = Object.fromEntries(resources[0]!.columns!.map((c) => [c.name, c.type]));
    assert.deepEqual(types, {
      big: 'BIGINT', small: 'SMALLINT', num: 'DECIMAL(38,10)', num_free: 'DOUBLE', price: 'DECIMAL(10,3)', f4: 'FLOAT', f8: 'DOUBLE',
      ts: 'TIMESTAMP', tstz: 'TIMESTAMPTZ', d: 'DATE', t: 'TIME', iv: 'INTERVAL', doc: 'JSON', j: 'JSON', flag: 'BOOLEAN', txt: 'VARCHAR', vc: 'VARCHAR', ch: 'VARCHAR',
      u: 'UUID', ints: 'INTEGER[]', tags: 'VARCHAR[]', raw: 'VARCHAR', feeling: 'VARCHAR', addr: 'VARCHAR',
    });
    const [row, empty] = records.typed!;
    assert.equal(row!.big, '9007199254740993', 'int8 keeps every digit');
    assert.equal(row!.small, -7);
    assert.equal(row!.num, '12345678901234567890.0123456789', 'numeric keeps every digit');
    assert.equal(row!.price, '2.125');
    assert.equal(row!.f8, 0.1);
    assert.equal(row!.ts, '2024-02-29 23:59:59.999999', 'timestamps keep microseconds and no local-time shift');
    assert.equal(row!.tstz, '2024-03-01 08:00:00.5+00', 'timestamptz arrives in UTC');
    assert.equal(row!.d, '2024-02-29');
    assert.equal(row!.iv, '@ 10 mons 3 days -4 hours -5 mins -6 secs ago', '-1 year 2 mons -3 days 04:05:06 in a form DuckDB parses');
    assert.deepEqual(row!.doc, { a: [1, 2], b: { c: null } });
    assert.deepEqual(row!.j, [1, 'x']);
    assert.equal(row!.flag, true);
    assert.equal(row!.ch, 'ab ');
    assert.deepEqual(row!.ints, [1, 2, null]);
    assert.deepEqual(row!.tags, ['x y', 'z']);
    assert.equal(row!.raw, '\\x0102ff');
    assert.equal(row!.feeling, 'happy');
    // the NULL row: every column present and null
    assert.equal(Object.keys(empty!).length, Object.keys(types).length);
    for (const [k, v] of Object.entries(empty!)) if (k !== 'big') assert.equal(v, null, k);

    // and DuckDB casts every value to its declared type, the way the sync engine bulk-loads records
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-sqldb-'));
    const file = path.join(dir, 'typed.ndjson');
    fs.writeFileSync(file, records.typed!.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const columns = `{${Object.entries(types).map(([k, v]) => `'${k}': '${v}'`).join(', ')}}`;
    await conn.run(`CREATE TABLE typed AS SELECT * FROM read_json('${file}', format='newline_delimited', columns=${columns})`);
    const described = Object.fromEntries((await conn.runAndReadAll('DESCRIBE typed')).getRows().map((r) => [r[0], r[1]]));
    assert.equal(described.num, 'DECIMAL(38,10)');
    assert.equal(described.tstz, 'TIMESTAMP WITH TIME ZONE');
    const got = (
      await conn.runAndReadAll(
        `SELECT big::VARCHAR, num::VARCHAR, ts::VARCHAR, epoch_ms(tstz), d::VARCHAR, datepart('month', iv) + 12 * datepart('year', iv), datepart('day', iv), doc->>'$.a[1]', ints, u::VARCHAR FROM typed WHERE big IS NOT NULL`,
      )
    ).getRowsJson()[0];
    assert.deepEqual(got, ['9007199254740993', '12345678901234567890.0123456789', '2024-02-29 23:59:59.999999', String(Date.UTC(2024, 2, 1, 8, 0, 0, 500)), '2024-02-29', '-10', '-3', '2', [1, 2, null], 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']);
    conn.closeSync();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('numeric NaN in a DECIMAL column loads as NULL with a warning', async () => {
    pg.psql(`CREATE TABLE odd (id int, n numeric(8,2)); INSERT INTO odd VALUES (1, 'NaN'), (2, 3.5);`, 'shop');
    const { records, ctx } = await discoverAndRead({ tables: ['odd'] });
    assert.deepEqual(records.odd!.map((r) => r.n), [null, '3.50']);
    assert.equal(ctx.logs.filter((l) => l.level === 'warn').length, 1);
  });
});

describe('connection errors', () => {
  const hostConfig = (password_env: string) => ({ host: pg.host, port: pg.port, database: 'shop', username: READER.user, password_env, tables: ['customers'] });

  test('a wrong password names the variable holding it and never shows it', async () => {
    const ctx = createTestContext<any>(source, hostConfig('PG_PASSWORD'), { env: { PG_PASSWORD: 'not-the-password' } });
    await assert.rejects(source.discover(ctx), (e: SourceError) => {
      assert.equal(e.code, 'auth_failed');
      assert.match(e.message, /PG_PASSWORD/);
      assert.match(e.message, /"reader"/);
      assert.ok(!e.message.includes('not-the-password'));
      return true;
    });
    const res = await source.check(ctx);
    assert.equal(res.ok, false);
    assert.match(res.message!, /PG_PASSWORD/);
    // the right password through the same fields works
    const good = createTestContext<any>(source, hostConfig('PG_PASSWORD'), { env });
    assert.equal((await source.check(good)).ok, true);
  });

  test('a wrong password in a URL names the URL variable', async () => {
    const ctx = createTestContext<any>(source, { connection_url_env: 'SHOP_URL' }, { env: { SHOP_URL: pg.urlFor(READER.user, 'nope-nope', 'shop') } });
    await assert.rejects(source.discover(ctx), (e: SourceError) => e.code === 'auth_failed' && /SHOP_URL/.test(e.message) && !e.message.includes('nope-nope'));
  });

  test('a missing variable, a non-URL, a closed port and a half-given config are clear errors', async () => {
    await assert.rejects(source.discover(createTestContext<any>(source, { connection_url_env: 'NOT_SET' }, { env: {} })), (e: SourceError) => e.code === 'missing_secret' && /NOT_SET/.test(e.message));
    await assert.rejects(source.discover(createTestContext<any>(source, { connection_url_env: 'U' }, { env: { U: 'mysql://x@y/z' } })), (e: SourceError) => e.code === 'config_invalid' && /U must hold a postgres/.test(e.message));
    await assert.rejects(source.discover(createTestContext<any>(source, { host: '127.0.0.1', port: 1, database: 'x', username: 'y' })), (e: SourceError) => e.code === 'connection_failed' && /127\.0\.0\.1:1/.test(e.message));
    await assert.rejects(source.discover(createTestContext<any>(source, { host: 'h' })), (e: SourceError) => e.code === 'config_invalid' && /database, username/.test(e.message));
    await assert.rejects(source.discover(createTestContext<any>(source, { connection_url_env: 'SHOP_URL', host: 'h' }, { env })), (e: SourceError) => e.code === 'config_invalid');
  });
});

describe('identifier injection', () => {
  test('a table name carrying SQL is refused before any SQL is built with it', async () => {
    for (const name of ['customers"; DROP TABLE customers; --', "customers' OR 1=1 --", 'public.customers']) {
      await assert.rejects(discoverAndRead({ tables: [name] }), (e: SourceError) => e.code === 'not_found', name);
    }
    await assert.rejects(discoverAndRead({ schema: 'public"; DROP TABLE customers; --' }), (e: SourceError) => e.code === 'not_found');
    await assert.rejects(discoverAndRead({ tables: ['Customers'] }), (e: SourceError) => e.code === 'not_found' && /Did you mean "customers"/.test(e.message));
    assert.equal(pg.psql('SELECT count(*) FROM customers', 'shop').trim(), '10', 'customers is intact');
  });

  test('a real table and column with quotes and semicolons in their names are read, safely quoted', async () => {
    pg.psql(`CREATE TABLE "we""ird; DROP TABLE customers; --" ("col""1; --" int, "Mixed Case" text); INSERT INTO "we""ird; DROP TABLE customers; --" VALUES (1, 'ok');`, 'shop');
    const name = 'we"ird; DROP TABLE customers; --';
    const { resources, records } = await discoverAndRead({ tables: [name], incremental: { [name]: 'col"1; --' } });
    assert.equal(resources[0]!.name, 'we_ird_drop_table_customers_');
    assert.deepEqual(records.we_ird_drop_table_customers_, [{ 'col"1; --': 1, 'Mixed Case': 'ok' }]);
    assert.equal(pg.psql('SELECT count(*) FROM customers', 'shop').trim(), '10', 'customers is intact');
  });
});

test('cancelling stops the read with a cancelled error', async () => {
  const controller = new AbortController();
  const ctx = ctxFor({ tables: ['customers'], chunk_size: 2 }, { signal: controller.signal });
  const resources = await source.discover(ctx);
  let batches = 0;
  await assert.rejects(
    (async () => {
      for await (const item of source.read(ctx, resources, {})) {
        if (item.kind === 'records' && ++batches === 1) controller.abort();
      }
    })(),
    (e: SourceError) => e.code === 'cancelled',
  );
  assert.equal(batches, 1);
});
