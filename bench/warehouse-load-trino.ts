// Trino warehouse load speed (not a test): an N-row CSV (default 5M) loaded into Trino + Iceberg
// through Basin's warehouse interface (DuckDB writes Parquet into the lake, one CREATE OR REPLACE
// TABLE ... AS SELECT from the Hive staging table) against Trino's own bulk path in the same run:
// `INSERT INTO iceberg_table SELECT * FROM parquet_backed_table` over Parquet already in the lake.
// Starts the test support's coordinator (and its PostgreSQL) once and stops it at the end.
//   node --conditions=development --import tsx bench/warehouse-load-trino.ts [rows=5000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { resolveWarehouseSettings, warehouseBackend } from '@basin/core';
import { TrinoLogin } from '../plugins/warehouse-trino/src/trino-login.js';
import { makeRunDir, stopSharedServers } from '../scripts/lib/shared-servers.mjs';

const total = Number(process.argv[2] ?? 5_000_000);
const runDir = makeRunDir();
process.env.BASIN_TEST_RUN_DIR = runDir;
const { sharedTrino } = await import('../test/support/trino.js');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-bench-trino-'));
try {
  const t = await sharedTrino();
  console.log(`Trino coordinator started in ${secs(t.startMs)}`);
  // the data: one CSV, and the same rows as Parquet in the lake for the baseline
  const csv = path.join(work, 'orders.csv');
  const parquetDir = path.join(t.lakeDir, 'bench_baseline');
  fs.mkdirSync(parquetDir, { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const rows = `SELECT range AS id, 'customer_' || (range * 7919 % 100000) AS customer, round((range * 37 % 100000) / 100, 2)::DECIMAL(12,2) AS amount, TIMESTAMP '2024-01-01' + INTERVAL (range) SECOND AS ordered_at, ['DE','FR','IT','ES'][range % 4 + 1] AS country FROM range(${total})`;
  await c.run(`COPY (${rows}) TO '${csv}' (FORMAT csv, HEADER)`);
  await c.run(`COPY (${rows}) TO '${path.join(parquetDir, 'part-0.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
  c.closeSync();
  console.log(`${total.toLocaleString('en')} rows: CSV ${Math.round(fs.statSync(csv).size / 1e6)} MB`);

  const writer = new TrinoLogin({ server: t.url, ...t.writer, ca: t.ca });
  await writer.run(`CREATE SCHEMA IF NOT EXISTS ${t.stagingCatalog}.bench`);
  await writer.run(`CREATE SCHEMA IF NOT EXISTS ${t.catalog}.bench`);
  await writer.run(
    `CREATE TABLE ${t.stagingCatalog}.bench.orders_parquet (id bigint, customer varchar, amount decimal(12,2), ordered_at timestamp(6), country varchar) WITH (external_location = 'local:///bench_baseline', format = 'PARQUET')`,
  );
  await writer.run(`CREATE TABLE ${t.catalog}.bench.orders (id bigint, customer varchar, amount decimal(12,2), ordered_at timestamp(6), country varchar)`);

  const settings = resolveWarehouseSettings({ type: 'trino', host: '127.0.0.1', port: Number(new URL(t.url).port), ca_file: t.certificateFile, lake_dir: t.lakeDir, schema_prefix: 'bench_', user: t.writer.user, read_user: t.reader.user });
  const env: Record<string, string> = { BASIN_TRINO_PASSWORD: t.writer.password, BASIN_TRINO_READ_PASSWORD: t.reader.password };
  const client = await (await warehouseBackend('trino')).create({ projectDir: work, settings, dataDir: work, dbPath: path.join(work, 'warehouse.db'), env: (n) => env[n] });
  await client.open();
  await client.ensureSchema('raw');

  const baseline: number[] = [];
  const basin: number[] = [];
  // alternate, so the JIT warm-up and the machine's load fall on both
  for (let round = 0; round < 2; round++) {
    let t0 = performance.now();
    await writer.run(`INSERT INTO ${t.catalog}.bench.orders SELECT * FROM ${t.stagingCatalog}.bench.orders_parquet`);
    baseline.push(performance.now() - t0);
    await writer.run(`DELETE FROM ${t.catalog}.bench.orders`);

    t0 = performance.now();
    const staging = `_basin_staging__orders__r${round}`;
    await client.loadStaged({ schema: 'raw', staging, file: { path: csv, format: 'csv' } });
    await client.swap({ source: 'bench', syncId: `r${round}`, resources: [{ schema: 'raw', table: 'orders', staging, disposition: 'replace' }], cursor: { round } });
    basin.push(performance.now() - t0);
    console.log(`round ${round + 1}: Trino INSERT ... SELECT from Parquet ${secs(baseline[round]!)}, Basin CSV load ${secs(basin[round]!)}`);
  }
  const n = Number((await client.query('SELECT count(*) FROM bench_raw.orders', { timeoutMs: 60_000, maxRows: 1 })).rows[0]![0]);
  if (n !== total) throw new Error(`loaded ${n} rows, expected ${total}`);
  const best = (xs: number[]) => Math.min(...xs);
  console.log(`best: baseline ${secs(best(baseline))}, Basin ${secs(best(basin))}: ratio ${(best(basin) / best(baseline)).toFixed(2)}x (goal <= 1.3x)`);
  await client.close();
} finally {
  await stopSharedServers(runDir);
  fs.rmSync(work, { recursive: true, force: true });
}
