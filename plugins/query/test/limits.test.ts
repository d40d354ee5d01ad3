import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BasinApp } from '@basin/core';
import { bootQueryApp, query, seedShop } from './helpers.js';

/**
 * Resource limits of POST /api/query (issue 12): a query runs in its own process with a memory cap
 * and a wall-clock timeout, a bounded number run at once, and the response is capped in bytes.
 * The server (this test process) must stay up and small whatever a query does.
 */
describe('POST /api/query bounds memory, time, concurrency and response size', () => {
  let app: BasinApp;
  let peakServerRss = 0;
  const sample = setInterval(() => (peakServerRss = Math.max(peakServerRss, process.memoryUsage().rss)), 50);

  before(async () => {
    app = await bootQueryApp({
      query_timeout_seconds: 10,
      query_memory_mb: 512,
      query_max_response_bytes: 1024 * 1024,
      query_concurrency: 1,
      query_queue_size: 1,
    });
    await seedShop(app);
  });
  after(async () => {
    clearInterval(sample);
    await app.close();
  });

  for (const sql of ['SELECT len(range(1000000000)) AS n', 'SELECT len(range(70000000)) AS n', 'SELECT list(range) AS l FROM range(200000000)']) {
    test(`${sql} → 400 query_resource_limit, the server stays up and small`, async () => {
      const r = await query(app, sql);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'query_resource_limit', JSON.stringify(r.body));
      assert.equal(r.body.error.details.memory_limit_mb, 512);
      assert.equal((await query(app, 'SELECT 42 AS x')).body.rows[0][0], 42);
      assert.ok(peakServerRss < 1024 ** 3, `server RSS peaked at ${Math.round(peakServerRss / 1e6)} MB`);
    });
  }

  test('a response over api.query_max_response_bytes is cut with truncated_reason "bytes", never a 500', async () => {
    const r = await app.http.inject({ method: 'POST', url: '/api/query', payload: { sql: "SELECT repeat('x', 60000) AS s FROM range(10000)" } });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    assert.ok(r.rawPayload.length <= 1024 * 1024, `${r.rawPayload.length} bytes`);
    const body = r.json();
    assert.equal(body.truncated, true);
    assert.equal(body.truncated_reason, 'bytes');
    assert.ok(body.row_count > 0 && body.row_count < 20, String(body.row_count));
    assert.equal(body.rows.length, body.row_count);
  });

  test('a result cut at the row cap says truncated_reason "rows"', async () => {
    const r = await query(app, 'SELECT * FROM range(20000)');
    assert.equal(r.status, 200);
    assert.equal(r.body.row_count, 10000);
    assert.equal(r.body.truncated_reason, 'rows');
    const whole = await query(app, 'SELECT 1 AS one');
    assert.equal(whole.body.truncated, false);
    assert.equal(whole.body.truncated_reason, undefined);
  });

  test('sleep_ms and sleep are refused by the guard', async () => {
    for (const sql of ['SELECT sleep_ms(25000)', 'SELECT 1 FROM range(3) WHERE sleep_ms(10) IS NULL']) {
      const r = await query(app, sql);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'query_not_allowed');
      assert.equal(r.body.error.details.function, 'sleep_ms');
    }
  });

  test('table functions named without parentheses are refused (they would reveal the serving file path)', async () => {
    for (const [sql, fn] of [
      ['SELECT * FROM duckdb_databases', 'duckdb_databases'],
      ['SELECT * FROM pragma_database_list', 'pragma_database_list'],
      ['SELECT path FROM main.duckdb_databases', 'duckdb_databases'],
      ['SELECT * FROM duckdb_settings', 'duckdb_settings'],
    ]) {
      const r = await query(app, sql);
      assert.equal(r.status, 400, `${sql}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'query_not_allowed');
      assert.equal(r.body.error.details.function, fn);
      assert.ok(!JSON.stringify(r.body).includes(app.warehouse.servingPath));
    }
    // a real table is still a table, and allowed catalog functions work without parentheses too
    assert.equal((await query(app, 'SELECT count(*) FROM raw.orders')).status, 200);
    assert.equal((await query(app, "SELECT count(*) AS n FROM duckdb_tables WHERE schema_name = 'raw'")).body.rows[0][0], 2);
  });

  test('a query past the timeout is killed on the wall clock; a full queue answers 503 query_busy', async () => {
    const heavy = 'SELECT sum(a.range * b.range) FROM range(3000000) a, range(3000000) b';
    const started = Date.now();
    const first$ = query(app, heavy);
    await new Promise((r) => setTimeout(r, 300));
    const second$ = query(app, heavy);
    await new Promise((r) => setTimeout(r, 100));
    const [first, second, third] = await Promise.all([first$, second$, query(app, heavy)]);
    const codes = [first, second, third].map((r) => `${r.status} ${r.body.error?.code}`);
    // the first runs until it is killed; the third finds the queue (size 1) full; the second waits at most
    // the timeout for the slot, so it either runs (and is killed) or gives up waiting
    assert.equal(codes[0], '400 query_timeout', JSON.stringify(codes));
    assert.ok(['400 query_timeout', '503 query_busy'].includes(codes[1]!), JSON.stringify(codes));
    assert.equal(codes[2], '503 query_busy', JSON.stringify(codes));
    assert.equal(first.body.error.details.timeout_seconds, 10);
    const busy = third;
    assert.equal(busy.body.error.details.retry_after_seconds, 1);
    // at most two 10 s runs one after the other (a generous bound: the point is that nothing hangs)
    assert.ok(Date.now() - started < 3 * 10_000, `${Date.now() - started} ms`);
    assert.equal((await query(app, 'SELECT 7 AS x')).body.rows[0][0], 7);
  });

  test('a non-string sql is 422, also an array that a coercing validator would turn into a string', async () => {
    for (const sql of [['select 1'], 1, null, { a: 1 }]) {
      const r = await query(app, sql);
      assert.equal(r.status, 422, JSON.stringify([sql, r.body]));
      assert.equal(r.body.error.code, 'validation_failed');
    }
  });
});
