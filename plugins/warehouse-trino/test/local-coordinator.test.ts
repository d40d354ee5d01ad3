// The local coordinator `basin warehouse up` and the tests start: password logins over HTTPS, the
// reader limited to reading the warehouse catalog, Iceberg tables loaded from Parquet staged by DuckDB.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { TrinoLogin, TrinoQueryError } from '../src/trino-login.js';
import { sharedTrino, type TrinoTestServer } from '../../../test/support/trino.js';

let trino: TrinoTestServer;
let writer: TrinoLogin;
let reader: TrinoLogin;
const schema = `t_${process.pid}`;

before(async () => {
  trino = await sharedTrino();
  console.log(`# Trino coordinator ready (started in ${trino.startMs} ms by the first test file that needed it)`);
  writer = new TrinoLogin({ server: trino.url, ...trino.writer, catalog: trino.catalog, ca: trino.ca });
  reader = new TrinoLogin({ server: trino.url, ...trino.reader, catalog: trino.catalog, ca: trino.ca });
  await writer.run(`CREATE SCHEMA IF NOT EXISTS ${trino.catalog}.${schema}`);
});

after(async () => {
  await writer.run(`DROP TABLE IF EXISTS ${trino.catalog}.${schema}.orders`);
  await writer.run(`DROP SCHEMA IF EXISTS ${trino.catalog}.${schema}`);
});

const code = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return e instanceof TrinoQueryError ? e.errorName : String((e as Error).message);
  }
  return 'ok';
};

test('Parquet written by DuckDB loads into an Iceberg table through a Hive staging table', async () => {
  const stage = path.join(trino.lakeDir, 'stage', schema, 'orders');
  fs.mkdirSync(stage, { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(
    `COPY (SELECT range AS id, 'c' || (range % 7) AS customer, TIMESTAMP '2024-01-01' + INTERVAL (range) MINUTE AS ordered_at FROM range(1000)) TO '${path.join(stage, 'part-0.parquet')}' (FORMAT parquet)`,
  );
  c.closeSync();
  await writer.run(`CREATE SCHEMA IF NOT EXISTS ${trino.stagingCatalog}.${schema}`);
  await writer.run(
    `CREATE TABLE ${trino.stagingCatalog}.${schema}.orders (id bigint, customer varchar, ordered_at timestamp(6)) WITH (external_location = 'local:///stage/${schema}/orders', format = 'PARQUET')`,
  );
  await writer.run(`CREATE TABLE ${trino.catalog}.${schema}.orders AS SELECT * FROM ${trino.stagingCatalog}.${schema}.orders`);
  await writer.run(`DROP TABLE ${trino.stagingCatalog}.${schema}.orders`);
  await writer.run(`DROP SCHEMA ${trino.stagingCatalog}.${schema}`);
  const rows = await reader.rows<{ n: number; customers: number }>(`SELECT count(*) AS n, approx_distinct(customer) AS customers FROM ${schema}.orders`);
  assert.deepEqual(rows, [{ n: 1000, customers: 7 }]);
});

test('the reader cannot write, create, or see the staging catalog', async () => {
  assert.equal(await code(reader.run(`INSERT INTO ${schema}.orders VALUES (1, 'x', TIMESTAMP '2024-01-01 00:00:00')`)), 'PERMISSION_DENIED');
  assert.equal(await code(reader.run(`CREATE TABLE ${schema}.evil (a int)`)), 'PERMISSION_DENIED');
  assert.equal(await code(reader.run(`DROP TABLE ${schema}.orders`)), 'PERMISSION_DENIED');
  const catalogs = (await reader.run('SHOW CATALOGS')).rows.map((r) => r[0]);
  assert.deepEqual(catalogs.sort(), [trino.catalog, 'system']);
});

test('a wrong password is refused', async () => {
  const intruder = new TrinoLogin({ server: trino.url, user: trino.reader.user, password: 'wrong', ca: trino.ca });
  assert.match(await code(intruder.run('SELECT 1')), /401/);
});

test('a row cap stops reading and reports the result as truncated', async () => {
  const r = await reader.run(`SELECT id FROM ${schema}.orders`, { maxRows: 10 });
  assert.equal(r.rows.length, 10);
  assert.equal(r.truncated, true);
});
