import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import type { BasinApp } from '@basin/core';
import { tempDir } from '@basin/test';
import { bootQueryApp, query, seedShop } from './helpers.js';

/**
 * Hostile inputs to POST /api/query: every one must be refused (4xx with the named code) or bounded,
 * and after all of them the warehouse and the file system are unchanged.
 */
describe('POST /api/query refuses or bounds hostile input', () => {
  let app: BasinApp;
  let scratch: string;
  let otherDb: string;

  before(async () => {
    app = await bootQueryApp({ query_max_rows: 1000, query_timeout_seconds: 2 });
    await seedShop(app);
    scratch = tempDir('basin-query-hostile-');
    otherDb = path.join(scratch, 'other.db');
    const other = await DuckDBInstance.create(otherDb);
    const c = await other.connect();
    await c.run("CREATE TABLE secrets AS SELECT 'top-secret' AS s");
    c.closeSync();
    other.closeSync();
    fs.writeFileSync(path.join(scratch, 'data.csv'), 'a,b\n1,2\n');
  });
  after(async () => {
    await app.close();
  });

  const notAllowed = (statement: string) => ({ status: 400, code: 'query_not_allowed', statement });
  const refusedFn = (fn: string) => ({ status: 400, code: 'query_not_allowed', fn });
  type Expect = { status: number; code: string; statement?: string; fn?: string };

  const cases: Array<[string, () => string, Expect]> = [
    // writes and DDL
    ['INSERT', () => 'INSERT INTO raw.orders VALUES (99, 1, 1.00, DATE \'2024-02-01\')', notAllowed('INSERT')],
    ['INSERT OR REPLACE', () => 'INSERT OR REPLACE INTO raw.orders SELECT * FROM raw.orders', notAllowed('INSERT')],
    ['UPDATE', () => 'UPDATE raw.orders SET amount = 0', notAllowed('UPDATE')],
    ['DELETE', () => 'DELETE FROM raw.orders', notAllowed('DELETE')],
    ['DROP TABLE', () => 'DROP TABLE raw.orders', notAllowed('DROP')],
    ['CREATE TABLE AS', () => 'CREATE TABLE raw.copy AS SELECT * FROM raw.orders', notAllowed('CREATE')],
    ['CREATE VIEW', () => 'CREATE VIEW v AS SELECT 1', notAllowed('CREATE')],
    ['CREATE MACRO', () => "CREATE MACRO f(x) AS x + 1", notAllowed('CREATE')],
    ['ALTER TABLE', () => 'ALTER TABLE raw.orders ADD COLUMN z INTEGER', notAllowed('ALTER')],
    ['TRUNCATE', () => 'TRUNCATE raw.orders', notAllowed('TRUNCATE')],
    ['CTE in front of INSERT', () => 'WITH x AS (SELECT * FROM raw.orders) INSERT INTO raw.orders SELECT * FROM x', notAllowed('INSERT')],
    ['CTE in front of DELETE', () => 'WITH RECURSIVE x(n) AS (SELECT 1) DELETE FROM raw.orders', notAllowed('DELETE')],
    // several statements and comment tricks
    ['two statements', () => 'SELECT 1; DROP TABLE raw.orders', { status: 400, code: 'query_not_allowed' }],
    ['two SELECTs', () => 'SELECT 1; SELECT 2', { status: 400, code: 'query_not_allowed' }],
    ['line comment hiding a statement', () => 'SELECT 1; -- harmless\n DROP TABLE raw.orders', { status: 400, code: 'query_not_allowed' }],
    ['statement after a line comment', () => 'SELECT 1 -- ; \n; DROP TABLE raw.orders', { status: 400, code: 'query_not_allowed' }],
    ['block comment with semicolon', () => 'SELECT 1 /* ; */; DROP TABLE raw.orders', { status: 400, code: 'query_not_allowed' }],
    ['block comment before DROP', () => '/* SELECT */ DROP TABLE raw.orders', notAllowed('DROP')],
    ['comment inside keyword position', () => 'DROP/**/TABLE raw.orders', notAllowed('DROP')],
    ['leading parenthesised select then write', () => '(SELECT 1); DELETE FROM raw.orders', { status: 400, code: 'query_not_allowed' }],
    // file readers and external access
    ['read_csv', () => "SELECT * FROM read_csv('/etc/passwd')", refusedFn('read_csv')],
    ['read_csv_auto', () => `SELECT * FROM read_csv_auto('${path.join(scratch, 'data.csv')}')`, refusedFn('read_csv_auto')],
    ['read_text', () => "SELECT content FROM read_text('/etc/passwd')", refusedFn('read_text')],
    ['read_blob', () => "SELECT * FROM read_blob('/etc/hostname')", refusedFn('read_blob')],
    ['read_json', () => "SELECT * FROM read_json('/etc/x.json')", refusedFn('read_json')],
    ['read_json_auto', () => "SELECT * FROM read_json_auto('/etc/x.json')", refusedFn('read_json_auto')],
    ['read_parquet', () => "SELECT * FROM read_parquet('/tmp/x.parquet')", refusedFn('read_parquet')],
    ['parquet_scan', () => "SELECT * FROM parquet_scan('/tmp/x.parquet')", refusedFn('parquet_scan')],
    ['glob', () => "SELECT * FROM glob('/etc/*')", refusedFn('glob')],
    ['sniff_csv', () => "SELECT * FROM sniff_csv('/etc/passwd')", refusedFn('sniff_csv')],
    ['replacement scan of /etc/passwd', () => "FROM '/etc/passwd'", { status: 400, code: 'query_not_allowed' }],
    ['replacement scan of a csv', () => `SELECT * FROM '${path.join(scratch, 'data.csv')}'`, { status: 400, code: 'query_not_allowed' }],
    ['replacement scan of a bare file name', () => "SELECT * FROM 'data.csv'", { status: 400, code: 'query_not_allowed' }],
    ['file reader in a scalar subquery', () => "SELECT (SELECT count(*) FROM read_text('/etc/passwd')) AS n", refusedFn('read_text')],
    ['file reader in a CTE', () => "WITH x AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM x", refusedFn('read_csv')],
    ['file reader in a UNION arm', () => "SELECT 'a' AS c UNION ALL SELECT content FROM read_text('/etc/passwd')", refusedFn('read_text')],
    ['file reader in IN subquery', () => "SELECT * FROM raw.orders WHERE id IN (SELECT 1 FROM glob('/*'))", refusedFn('glob')],
    ['query() runs SQL from a string', () => "SELECT * FROM query('SELECT * FROM read_text(''/etc/passwd'')')", refusedFn('query')],
    ['query_table()', () => "SELECT * FROM query_table('raw.orders')", refusedFn('query_table')],
    ['getenv', () => "SELECT getenv('HOME')", refusedFn('getenv')],
    ['current_setting', () => "SELECT current_setting('temp_directory')", refusedFn('current_setting')],
    ['duckdb_databases reveals paths', () => 'SELECT path FROM duckdb_databases()', refusedFn('duckdb_databases')],
    ['duckdb_settings', () => 'SELECT * FROM duckdb_settings()', refusedFn('duckdb_settings')],
    ['json_execute_serialized_sql', () => "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))", refusedFn('json_execute_serialized_sql')],
    // attach, copy, settings, extensions, export
    ['ATTACH another file', () => `ATTACH '${otherDb}' AS other`, notAllowed('ATTACH')],
    ['ATTACH read-only', () => `ATTACH '${otherDb}' AS other (READ_ONLY)`, notAllowed('ATTACH')],
    ['DETACH', () => 'DETACH serving', notAllowed('DETACH')],
    ['USE', () => 'USE memory', notAllowed('USE')],
    ['COPY TO a file', () => `COPY raw.orders TO '${path.join(scratch, 'out.csv')}'`, notAllowed('COPY')],
    ['COPY query TO a file', () => `COPY (SELECT * FROM raw.customers) TO '${path.join(scratch, 'out2.csv')}'`, notAllowed('COPY')],
    ['COPY FROM a file', () => "COPY raw.orders FROM '/etc/passwd'", notAllowed('COPY')],
    ['SET enable_external_access', () => 'SET enable_external_access = true', notAllowed('SET')],
    ['SET threads', () => 'SET threads = 1', notAllowed('SET')],
    ['RESET', () => 'RESET threads', notAllowed('RESET')],
    ['PRAGMA', () => 'PRAGMA database_list', notAllowed('PRAGMA')],
    ['INSTALL', () => 'INSTALL httpfs', notAllowed('INSTALL')],
    ['FORCE INSTALL', () => 'FORCE INSTALL httpfs', notAllowed('INSTALL')],
    ['LOAD', () => 'LOAD httpfs', notAllowed('LOAD')],
    ['EXPORT DATABASE', () => `EXPORT DATABASE '${path.join(scratch, 'export')}'`, notAllowed('EXPORT')],
    ['IMPORT DATABASE', () => `IMPORT DATABASE '${path.join(scratch, 'export')}'`, notAllowed('IMPORT')],
    ['CALL', () => 'CALL pragma_version()', notAllowed('CALL')],
    ['CHECKPOINT', () => 'CHECKPOINT', notAllowed('CHECKPOINT')],
    ['VACUUM', () => 'VACUUM', notAllowed('VACUUM')],
    ['BEGIN', () => 'BEGIN TRANSACTION', notAllowed('BEGIN')],
    ['EXPLAIN ANALYZE', () => 'EXPLAIN ANALYZE SELECT 1', notAllowed('EXPLAIN')],
    ['PREPARE', () => 'PREPARE p AS SELECT 1', notAllowed('PREPARE')],
    // malformed
    ['syntax error', () => 'SELEC 1', { status: 400, code: 'invalid_sql' }],
    ['empty', () => '   ', { status: 400, code: 'invalid_sql' }],
    ['only a comment', () => '-- nothing', { status: 400, code: 'invalid_sql' }],
    ['unknown table', () => 'SELECT * FROM raw.nope', { status: 400, code: 'query_failed' }],
  ];

  for (const [name, sql, expect] of cases) {
    test(`${name} → ${expect.status} ${expect.code}`, async () => {
      const r = await query(app, sql());
      assert.equal(r.status, expect.status, JSON.stringify(r.body));
      assert.equal(r.body.error.code, expect.code, JSON.stringify(r.body));
      if (expect.statement) assert.equal(r.body.error.details.statement, expect.statement);
      if (expect.fn) assert.equal(r.body.error.details.function, expect.fn);
    });
  }

  test('string literals that look like statements are data, not statements', async () => {
    const r = await query(app, "SELECT '; DROP TABLE raw.orders; --' AS a, $$; DELETE FROM raw.orders;$$ AS b, 'x'';DROP TABLE raw.orders' AS c");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.rows, [['; DROP TABLE raw.orders; --', '; DELETE FROM raw.orders;', "x';DROP TABLE raw.orders"]]);
  });

  test('a nested block comment swallowing a DROP never runs it', async () => {
    const r = await query(app, 'SELECT 1 AS one /* outer /* inner */ DROP TABLE raw.orders */');
    // DuckDB's lexer nests block comments: the whole tail is a comment
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.rows, [[1]]);
  });

  test('a huge result is truncated at api.query_max_rows', async () => {
    const r = await query(app, 'SELECT * FROM generate_series(1, 10000000) t(n)');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.truncated, true);
    assert.equal(r.body.row_count, 1000);
    assert.equal(r.body.rows.length, 1000);
    assert.deepEqual(r.body.rows[999], [1000]);
  });

  test('a result of exactly max rows is not marked truncated', async () => {
    const r = await query(app, 'SELECT * FROM range(1000)');
    assert.equal(r.status, 200);
    assert.equal(r.body.truncated, false);
    assert.equal(r.body.row_count, 1000);
  });

  test('a long-running query is interrupted after api.query_timeout_seconds', async () => {
    const r = await query(app, 'SELECT sum(a.range * b.range) FROM range(300000) a, range(300000) b');
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'query_timeout');
    assert.equal(r.body.error.details.timeout_seconds, 2);
    // the server still answers afterwards
    assert.equal((await query(app, 'SELECT 42 AS x')).body.rows[0][0], 42);
  });

  test('redundant parentheses 5000 deep are answered', async () => {
    const r = await query(app, `SELECT ${'('.repeat(5000)}1${')'.repeat(5000)} AS one`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.deepEqual(r.body.rows, [[1]]);
  });

  test('deeply nested expressions are refused cleanly, not crashed on', async () => {
    const r = await query(app, `SELECT ${'abs('.repeat(5000)}1${')'.repeat(5000)}`);
    assert.equal(r.status, 400, JSON.stringify(r.body).slice(0, 500));
    assert.ok(['invalid_sql', 'query_failed'].includes(r.body.error.code));
  });

  test('deeply nested subqueries within the parser limit are answered', async () => {
    let sql = 'SELECT 7 AS v';
    for (let i = 0; i < 60; i++) sql = `SELECT v FROM (${sql}) s${i}`;
    const r = await query(app, sql);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.deepEqual(r.body.rows, [[7]]);
  });

  test('SQL over 100 KB is refused with 413', async () => {
    const sql = `SELECT 1 AS x -- ${'x'.repeat(100 * 1024)}`;
    const r = await query(app, sql);
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'payload_too_large');
    assert.equal(r.body.error.details.limit_bytes, 102400);
  });

  test('a body far over the limit is refused with 413 before parsing', async () => {
    const r = await query(app, 'x'.repeat(2 * 1024 * 1024));
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'payload_too_large');
  });

  test('a non-string sql is a 422 validation error', async () => {
    const r = await query(app, { drop: 'table' });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.code, 'validation_failed');
  });

  test('after every hostile input the data, the other database and the file system are unchanged', async () => {
    const r = await query(app, 'SELECT count(*) AS n, sum(amount) AS total FROM raw.orders');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.rows, [[5, 170]]);
    const cols = await app.warehouse.query<{ n: string }>("SELECT count(*) AS n FROM information_schema.columns WHERE table_name = 'orders'");
    assert.equal(Number(cols[0]!.n), 4);
    const tables = await app.warehouse.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'raw' ORDER BY 1");
    assert.deepEqual(tables.map((t) => t.table_name), ['customers', 'orders']);
    assert.deepEqual(fs.readdirSync(scratch).sort(), ['data.csv', 'other.db']);
  });
});
