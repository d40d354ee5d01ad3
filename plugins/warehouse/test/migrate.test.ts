// basin warehouse migrate --to postgres and basin warehouse status, against Debian's PostgreSQL
// (started once for this file): raw tables, commit markers and cursor state move; dbt's models do not;
// project.yml switches atomically only after the counts match; the server then runs on PostgreSQL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createWarehouseClient, requireProjectConfig, type WarehouseClient } from '@basin/core';
import { syncEngineRef } from '@basin/plugin-sync/contract';
import { txRunnerRef } from '@basin/plugin-transform/contract';
import { postgresDbtVenv } from '@basin/warehouse-postgres';
import { bootApp, disableAuth, makeProject, runCliCaptured } from '@basin/test';
import { postgresBinDir, startPostgres, type PostgresServer } from '../../../test/support/postgres.js';

const skip = postgresBinDir() ? false : 'PostgreSQL server binaries are not installed (node scripts/setup.mjs postgresql)';
let pg: PostgresServer;
const ENV = { BASIN_WAREHOUSE_PASSWORD: 'writer-secret', BASIN_WAREHOUSE_READ_PASSWORD: 'reader-secret' };


/** a DuckDB project with two raw tables, cursor state, and a model table that is not raw */
async function duckdbProject(): Promise<string> {
  const dir = makeProject();
  disableAuth(dir);
  const client: WarehouseClient = await createWarehouseClient(await requireProjectConfig(dir));
  await client.open();
  const file = path.join(dir, 'orders.csv');
  fs.writeFileSync(file, 'id,amount,placed_at,note\n' + Array.from({ length: 500 }, (_, i) => `${i + 1},${(i * 1.5).toFixed(2)},2026-01-0${(i % 9) + 1} 10:00:00,${i % 7 ? `"n, ${i}"` : ''}`).join('\n') + '\n');
  const cols = [
    { name: 'id', type: 'BIGINT', nullable: false },
    { name: 'amount', type: 'DECIMAL(10,2)', nullable: true },
    { name: 'placed_at', type: 'TIMESTAMP', nullable: true },
    { name: 'note', type: 'VARCHAR', nullable: true },
  ];
  await client.loadStaged({ schema: 'raw_shop', staging: '_basin_staging__orders__a', file: { path: file, format: 'csv' }, columns: cols });
  await client.loadStaged({ schema: 'raw_shop', staging: '_basin_staging__refunds__a', file: { path: file, format: 'csv' }, columns: cols });
  await client.swap({
    source: 'shop',
    syncId: 'sync-a',
    resources: [
      { schema: 'raw_shop', table: 'orders', staging: '_basin_staging__orders__a', disposition: 'replace' },
      { schema: 'raw_shop', table: 'refunds', staging: '_basin_staging__refunds__a', disposition: 'replace' },
    ],
    cursor: { orders: { updated_at: '2026-01-09T10:00:00Z' } },
  });
  await client.execute('CREATE TABLE main.mart_orders AS SELECT count(*) AS n FROM raw_shop.orders');
  // nested values and bytes, as JSON sources and binary columns give them
  await client.execute(`CREATE TABLE raw_shop.events AS SELECT 1 AS id, {'a': 1, 'b': 'x, "y"'} AS payload, [1, 2] AS tags, '\\xAA\\x01'::BLOB AS raw`);
  await client.close();
  return dir;
}

const target = () => ['--set', `host=${pg.host}`, '--set', `port=${pg.port}`, '--set', 'database=basin', '--set', 'user=basin'];

before(async () => {
  if (skip) return;
  pg = await startPostgres();
  pg.psql(`CREATE ROLE basin LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE basin OWNER basin;`);
});
after(async () => {
  await pg?.stop();
  for (const k of Object.keys(ENV)) delete process.env[k];
});

test('a wrong password stops the migration before anything changes; project.yml stays on DuckDB', { skip }, async () => {
  const dir = await duckdbProject();
  const before = fs.readFileSync(path.join(dir, '.basin/project.yml'), 'utf8');
  Object.assign(process.env, { ...ENV, BASIN_WAREHOUSE_PASSWORD: 'wrong' });
  const r = await runCliCaptured(['warehouse', 'migrate', '--to', 'postgres', ...target(), '--project', dir]);
  Object.assign(process.env, ENV);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.err, /not reachable.*password authentication failed/s);
  assert.doesNotMatch(r.out + r.err, /wrong|writer-secret/);
  assert.equal(fs.readFileSync(path.join(dir, '.basin/project.yml'), 'utf8'), before);
});

test('migrate --to postgres copies raw tables and cursor state, switches project.yml; the server then runs on PostgreSQL', { skip }, async () => {
  const dir = await duckdbProject();
  const yml = path.join(dir, '.basin/project.yml');
  fs.appendFileSync(yml, '# kept by the migration\n');
  Object.assign(process.env, ENV);
  const r = await runCliCaptured(['warehouse', 'migrate', '--to', 'postgres', ...target(), '--project', dir]);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /raw_shop\.orders: 500 rows/);
  assert.match(r.out, /Copied 3 tables \(1001 rows\), 1 commit markers and the cursor state of 1 sources to postgres/);
  const text = fs.readFileSync(yml, 'utf8');
  assert.match(text, /# kept by the migration/);
  assert.match(text, /warehouse:\n\s+host: 127\.0\.0\.1\n[\s\S]*type: postgres/);

  // the data in PostgreSQL, read as the read-only role
  const config = await requireProjectConfig(dir);
  const client = await createWarehouseClient(config);
  await client.open();
  try {
    assert.equal(client.capabilities.type, 'postgres');
    const q = await client.query('SELECT count(*), sum(amount)::text, count(note), min(placed_at)::text FROM raw_shop.orders', { timeoutMs: 5000, maxRows: 10 });
    assert.deepEqual(q.rows[0]!.slice(0, 3), ['500', '187125.00', String(500 - Math.ceil(500 / 7))]);
    assert.equal(q.rows[0]![3], '2026-01-01 10:00:00');
    assert.equal((await client.query("SELECT note FROM raw_shop.orders WHERE id = 2", { timeoutMs: 5000, maxRows: 1 })).rows[0]![0], 'n, 1');
    assert.deepEqual(await client.cursorState('shop'), { orders: { updated_at: '2026-01-09T10:00:00Z' } });
    assert.deepEqual([...(await client.committedSyncs(['sync-a']))], ['sync-a']);
    const tables = (await client.listTables()).map((t) => `${t.schema}.${t.name}`);
    assert.deepEqual(tables, ['raw_shop.events', 'raw_shop.orders', 'raw_shop.refunds'], 'raw tables only: dbt rebuilds the models');
    const ev = await client.query("SELECT payload->>'b', tags->>1, encode(raw, 'hex'), pg_typeof(payload)::text FROM raw_shop.events", { timeoutMs: 5000, maxRows: 1 });
    assert.deepEqual(ev.rows[0], ['x, "y"', '2', 'aa01', 'jsonb']);
    assert.match((await client.describeTable('raw_shop', 'orders'))!.map((c) => c.type).join(','), /^bigint,numeric\(10,2\),timestamp without time zone,text$/);
  } finally {
    await client.close();
  }

  // a second run refuses: the project is on PostgreSQL now (migrate copies from DuckDB)
  const again = await runCliCaptured(['warehouse', 'migrate', '--to', 'postgres', ...target(), '--keep-project', '--project', dir]);
  assert.equal(again.code, 1, 'the project is on PostgreSQL now');
  assert.match(again.err, /already postgres/);

  // status from the CLI, and in /api/health/platform of the server booted on the new backend
  const st = await runCliCaptured(['warehouse', 'status', '--json', '--project', dir]);
  assert.equal(st.code, 0, st.err);
  const status = JSON.parse(st.out);
  assert.equal(status.type, 'postgres');
  assert.equal(status.ok, true);
  assert.equal(status.tables, 3);
  assert.match(status.version, /^PostgreSQL \d+/);
  // a sync on the PostgreSQL project: DuckDB loads and commits, then the tables go to PostgreSQL
  fs.writeFileSync(path.join(dir, '.basin/sources.yml'), 'version: "1.0"\nsources:\n  - name: files\n    type: local_files\n    local_files:\n      directory: data/files\n');
  fs.mkdirSync(path.join(dir, 'data/files'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'data/files/visits.csv'), 'id,page\n1,/home\n2,/pricing\n3,/home\n');
  const app = await bootApp(dir);
  try {
    assert.equal(app.warehouseClient.capabilities.type, 'postgres');
    const rec = await app.resolve(syncEngineRef).run('files');
    assert.equal(rec.status, 'succeeded', rec.error ?? '');
    const visits = (await app.warehouseClient.listTables('raw_files')).filter((t) => !t.name.endsWith('__rejects') && t.name !== '_basin_files');
    assert.equal(visits.length, 1);
    // the rows' file ids name their file in _basin_files, on PostgreSQL too
    const named = await app.warehouseClient.query(
      `SELECT f.source_file, count(*) FROM ${app.warehouseClient.capabilities.qualify('raw_files', visits[0]!.name)} AS v JOIN ${app.warehouseClient.capabilities.qualify('raw_files', '_basin_files')} AS f ON f.file_id = v._basin_file_id GROUP BY 1`,
      { timeoutMs: 5000, maxRows: 5 },
    );
    assert.deepEqual(named.rows, [['data/files/visits.csv', '3']]);
    const got = await app.warehouseClient.query(`SELECT count(*), count(DISTINCT page) FROM ${app.warehouseClient.capabilities.qualify('raw_files', visits[0]!.name)}`, { timeoutMs: 5000, maxRows: 1 });
    assert.deepEqual(got.rows[0], ['3', '2']);
    assert.deepEqual([...(await app.warehouseClient.committedSyncs([rec.id]))], [rec.id]);
    // dbt runs in PostgreSQL with dbt-postgres (its own venv) and the profile Basin writes from the target
    if (postgresDbtVenv.ready(postgresDbtVenv.locate(undefined).dir)) {
      fs.mkdirSync(path.join(dir, 'tx/models/marts'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'tx/models/marts/orders_by_day.sql'), "select cast(placed_at as date) as day, count(*) as orders from {{ source('shop', 'orders') }} group by 1\n");
      fs.writeFileSync(path.join(dir, 'tx/models/marts/sources.yml'), 'version: 2\nsources:\n  - name: shop\n    schema: raw_shop\n    tables:\n      - name: orders\n');
      const run = await app.resolve(txRunnerRef).run({ command: 'run', select: 'orders_by_day' });
      assert.equal(run.status, 'succeeded', JSON.stringify(run));
      const mart = await app.warehouseClient.query('SELECT count(*), sum(orders) FROM main.orders_by_day', { timeoutMs: 5000, maxRows: 1 });
      assert.deepEqual(mart.rows[0], ['9', '500']);
      assert.doesNotMatch(fs.readFileSync(path.join(dir, '.basin/tmp/dbt-profiles/profiles.yml'), 'utf8'), /writer-secret/);
    }
    // the SQL endpoint reads as the read-only role; a write is refused by PostgreSQL itself
    const ask = (sql: string) => app.http.inject({ method: 'POST', url: '/api/query', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { sql } });
    const ok = await ask('SELECT id, amount FROM raw_shop.orders ORDER BY id LIMIT 2');
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json().rows, [['1', '0.00'], ['2', '1.50']]);
    assert.equal(ok.json().row_count, 2);
    const write = await ask('DELETE FROM raw_shop.orders');
    assert.equal(write.statusCode, 400, write.body);
    assert.equal(write.json().error.code, 'query_not_allowed');
    const h = (await app.http.inject({ method: 'GET', url: '/api/health/platform' })).json();
    assert.equal(h.warehouse.type, 'postgres');
    assert.equal(h.warehouse.status, 'ok');
    assert.equal(h.database.raw_tables, 4);
    assert.doesNotMatch(JSON.stringify(h), /secret|127\.0\.0\.1/);
  } finally {
    await app.close();
  }
});

test('warehouse status on the default DuckDB warehouse', async () => {
  const dir = makeProject();
  const st = await runCliCaptured(['warehouse', 'status', '--project', dir]);
  assert.equal(st.code, 0, st.err);
  assert.match(st.out, /Warehouse: duckdb at .*warehouse\.db/);
  assert.match(st.out, /Health:\s+ok \(DuckDB v1\.5/);
  const bad = await runCliCaptured(['warehouse', 'migrate', '--to', 'nosuch', '--project', dir]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /No warehouse backend of type "nosuch".*installed: duckdb, .*postgres/);
});
