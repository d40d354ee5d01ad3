import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BasinApp } from '@basin/core';
import { bootQueryApp, query, seedShop } from './helpers.js';
import { ReadOnlyInstance } from '../src/read-only-instance.js';

describe('POST /api/query answers analytical SELECTs', () => {
  let app: BasinApp;
  before(async () => {
    app = await bootQueryApp({ query_max_rows: 500 });
    await seedShop(app);
  });
  after(async () => {
    await app.close();
  });

  test('join + aggregate, with columns named and typed', async () => {
    const r = await query(
      app,
      `SELECT c.name, count(*) AS orders, sum(o.amount) AS total
         FROM raw.orders o JOIN raw.customers c ON c.id = o.customer_id
        GROUP BY c.name ORDER BY total DESC`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.columns, [
      { name: 'name', type: 'VARCHAR' },
      { name: 'orders', type: 'BIGINT' },
      { name: 'total', type: 'DECIMAL(38,2)' },
    ]);
    assert.deepEqual(r.body.rows, [['Grace', 2, 120], ['Linus', 1, 30], ['Ada', 2, 20]]);
    assert.equal(r.body.row_count, 3);
    assert.equal(r.body.truncated, false);
    assert.equal(typeof r.body.elapsed_ms, 'number');
  });

  test('window functions', async () => {
    const r = await query(
      app,
      `SELECT id, customer_id, sum(amount) OVER (PARTITION BY customer_id ORDER BY id) AS running,
              rank() OVER (ORDER BY amount DESC) AS rnk
         FROM raw.orders ORDER BY id`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.rows, [
      [10, 1, 12.5, 4],
      [11, 1, 20, 5],
      [12, 2, 100, 1],
      [13, 3, 30, 2],
      [14, 2, 120, 3],
    ]);
  });

  test('CTEs, UNION and subqueries', async () => {
    const r = await query(
      app,
      `WITH daily AS (SELECT ordered_on, sum(amount) AS revenue FROM raw.orders GROUP BY 1),
            best AS (SELECT max(revenue) AS m FROM daily)
       SELECT 'best' AS kind, ordered_on FROM daily WHERE revenue = (SELECT m FROM best)
       UNION ALL
       SELECT 'first', min(ordered_on) FROM raw.orders WHERE customer_id IN (SELECT id FROM raw.customers WHERE country = 'FI')
       ORDER BY kind`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.rows, [['best', '2024-01-02'], ['first', '2024-01-03']]);
  });

  test('FROM-first, VALUES, DESCRIBE and information_schema are SELECTs too', async () => {
    assert.deepEqual((await query(app, 'FROM raw.customers SELECT name WHERE id = 3')).body.rows, [['Linus']]);
    assert.deepEqual((await query(app, 'VALUES (1, 2)')).body.rows, [[1, 2]]);
    const d = await query(app, 'DESCRIBE raw.customers');
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.deepEqual(d.body.rows.map((row: unknown[]) => row[0]), ['id', 'name', 'country']);
    const t = await query(app, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'raw' ORDER BY 1");
    assert.deepEqual(t.body.rows, [['customers'], ['orders']]);
  });

  test('values are JSON-safe: big integers and wide decimals as strings, dates ISO, blobs base64', async () => {
    const r = await query(
      app,
      `SELECT 9007199254740991::BIGINT AS safe, 9007199254740993::BIGINT AS big, (2::HUGEINT ** 100)::HUGEINT AS huge,
              (-9223372036854775808)::BIGINT AS min_big,
              123.45::DECIMAL(10,2) AS dec_small, 12345678901234567.89::DECIMAL(38,2) AS dec_wide,
              DATE '2024-02-29' AS d, TIMESTAMP '2024-02-29 13:14:15.123456' AS ts,
              TIMESTAMPTZ '2024-02-29 13:14:15+00' AS tstz,
              '\\x00\\xFFhi'::BLOB AS b, INTERVAL 3 DAY + INTERVAL 2 HOUR AS iv,
              [1, 2, NULL] AS l, {'a': 1, 'b': 'x'} AS s, MAP {'k': 1} AS m,
              'NaN'::DOUBLE AS nan, 1.5::DOUBLE AS dbl, NULL AS nothing, true AS yes,
              '550e8400-e29b-41d4-a716-446655440000'::UUID AS u`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const row = Object.fromEntries(r.body.columns.map((c: { name: string }, i: number) => [c.name, r.body.rows[0][i]]));
    assert.equal(row.safe, 9007199254740991);
    assert.equal(row.big, '9007199254740993');
    assert.equal(row.huge, '1267650600228229401496703205376');
    assert.equal(row.min_big, '-9223372036854775808');
    assert.equal(row.dec_small, 123.45);
    assert.equal(row.dec_wide, '12345678901234567.89');
    assert.equal(row.d, '2024-02-29');
    assert.equal(row.ts, '2024-02-29T13:14:15.123456Z');
    assert.equal(row.tstz, '2024-02-29T13:14:15Z');
    assert.equal(row.b, Buffer.from([0, 255, 104, 105]).toString('base64'));
    assert.deepEqual(row.iv, { months: 0, days: 3, micros: String(2 * 3600 * 1e6) });
    assert.deepEqual(row.l, [1, 2, null]);
    assert.deepEqual(row.s, { a: 1, b: 'x' });
    assert.deepEqual(row.m, [{ key: 'k', value: 1 }]);
    assert.equal(row.nan, 'NaN');
    assert.equal(row.dbl, 1.5);
    assert.equal(row.nothing, null);
    assert.equal(row.yes, true);
    assert.equal(row.u, '550e8400-e29b-41d4-a716-446655440000');
  });

  test('a write after the last publish is seen: the stale copy is republished and the reader reopens', async () => {
    const before = fs.statSync(app.warehouse.servingPath).ino;
    await app.warehouse.write(async (c) => {
      await c.run('CREATE TABLE raw.refunds AS SELECT 12 AS order_id, 5.00::DECIMAL(10,2) AS amount');
    });
    const r = await query(app, 'SELECT count(*) AS n, sum(amount) AS amount FROM raw.refunds');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.rows, [[1, 5]]);
    assert.notEqual(fs.statSync(app.warehouse.servingPath).ino, before);
    // and a fresh copy is not republished on every query
    const again = fs.statSync(app.warehouse.servingPath).ino;
    await query(app, 'SELECT 1');
    assert.equal(fs.statSync(app.warehouse.servingPath).ino, again);
  });

  test('the read-only connection itself refuses file access, settings, ATTACH and writes (without the guard)', async () => {
    const engine = new ReadOnlyInstance({ memoryLimitMb: 256, threads: 1 });
    const conn = await engine.connection(app.warehouse.servingPath);
    try {
      for (const sql of [
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT * FROM glob('/etc/*')",
        "FROM '/etc/passwd'",
        'SET enable_external_access = true',
        "ATTACH '/tmp/basin-should-not-exist.db' AS x",
        'CREATE TABLE raw.x AS SELECT 1',
        'INSERT INTO raw.customers VALUES (4, \'Eve\', \'XX\')',
        "COPY raw.customers TO '/tmp/basin-should-not-exist.csv'",
        'INSTALL httpfs',
      ]) {
        await assert.rejects(conn.run(sql), (e: Error) => /Permission|read-only|disabled|lock|Cannot|not allowed|Catalog/i.test(e.message), sql);
      }
      assert.equal(fs.existsSync('/tmp/basin-should-not-exist.db'), false);
      assert.equal(fs.existsSync('/tmp/basin-should-not-exist.csv'), false);
    } finally {
      engine.close();
    }
  });
});
