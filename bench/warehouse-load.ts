// 5M-row CSV load into each warehouse backend through Basin's warehouse interface (staged load +
// atomic swap with the commit marker) vs that engine's own bulk path, in the same run (issue 22):
// DuckDB `CREATE TABLE AS SELECT * FROM read_csv`, PostgreSQL `COPY ... FROM STDIN`, Trino `INSERT INTO
// iceberg_table SELECT * FROM parquet_backed_table` over the same rows already in the lake as Parquet
// (the test support's coordinator, started once here). Not a test.
//   node --conditions=development --import tsx bench/warehouse-load.ts [rows=5000000] [backends=duckdb,postgres,trino]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DuckDBInstance } from '@duckdb/node-api';
import { type ColumnInfo, type WarehouseClient } from '@basin/core';
import { startPostgres, type PostgresServer } from '../test/support/postgres.js';
import { TrinoLogin } from '../plugins/warehouse-trino/src/trino-login.js';
import { makeRunDir, stopSharedServers } from '../scripts/lib/shared-servers.mjs';
import { clientFor } from '../test/support/warehouse-backends.js';
import { writeCsv } from './sync-common.js';

const rows = Number(process.argv[2] ?? 5_000_000);
const backends = (process.argv[3] ?? 'duckdb,postgres').split(',');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wh-'));
const csv = path.join(work, 'data.csv');

const COLUMNS: ColumnInfo[] = [
  { name: 'id', type: 'BIGINT', nullable: false },
  { name: 'created_at', type: 'TIMESTAMP', nullable: true },
  { name: 'customer', type: 'VARCHAR', nullable: true },
  { name: 'category', type: 'VARCHAR', nullable: true },
  { name: 'amount', type: 'DOUBLE', nullable: true },
  { name: 'quantity', type: 'INTEGER', nullable: true },
  { name: 'active', type: 'BOOLEAN', nullable: true },
  { name: 'comment', type: 'VARCHAR', nullable: true },
];
const PG_COLUMNS = 'id bigint, created_at timestamp, customer text, category text, amount double precision, quantity integer, active boolean, comment text';

/** one load through the interface: stage the file, swap it in as a replace with its commit marker */
async function viaInterface(client: WarehouseClient, n: number): Promise<number> {
  const t0 = performance.now();
  const staged = await client.loadStaged({ schema: 'raw_bench', staging: `_basin_staging__events__${n}`, file: { path: csv, format: 'csv' }, columns: COLUMNS });
  const [t] = await client.swap({ source: 'bench', syncId: `bench-${n}`, resources: [{ schema: 'raw_bench', table: 'events', staging: `_basin_staging__events__${n}`, disposition: 'replace' }] });
  if (staged.rows !== rows || t!.rows !== rows) throw new Error(`loaded ${staged.rows}/${t!.rows} rows, expected ${rows}`);
  return performance.now() - t0;
}

/** a client of the backend the section names, as a project gets it, in a folder of its own under `work` */
const client = (type: string, section: Record<string, unknown>, env: Record<string, string>): Promise<WarehouseClient> =>
  clientFor(fs.mkdtempSync(path.join(work, `${type}-`)), { section, env });

async function duckdb(): Promise<{ baseline: number; basin: number }> {
  const baseline = async () => {
    const dir = fs.mkdtempSync(path.join(work, 'duck-ctas-'));
    const inst = await DuckDBInstance.create(path.join(dir, 'w.db'));
    const c = await inst.connect();
    const t0 = performance.now();
    await c.run(`CREATE TABLE t AS SELECT * FROM read_csv('${csv}', columns = {'id': 'BIGINT', 'created_at': 'TIMESTAMP', 'customer': 'VARCHAR', 'category': 'VARCHAR', 'amount': 'DOUBLE', 'quantity': 'INTEGER', 'active': 'BOOLEAN', 'comment': 'VARCHAR'})`);
    const ms = performance.now() - t0;
    c.closeSync();
    inst.closeSync();
    fs.rmSync(dir, { recursive: true, force: true });
    return ms;
  };
  const basin = async () => {
    const c = await client('duckdb', { type: 'duckdb' }, {});
    try {
      return await viaInterface(c, 1);
    } finally {
      await c.close();
    }
  };
  return best(baseline, basin);
}

async function postgres(): Promise<{ baseline: number; basin: number }> {
  const server: PostgresServer = await startPostgres();
  try {
    server.psql(`CREATE ROLE basin LOGIN PASSWORD 'bench' CREATEROLE; CREATE DATABASE basin OWNER basin;`);
    const env = { BASIN_WAREHOUSE_PASSWORD: 'bench', BASIN_WAREHOUSE_READ_PASSWORD: 'bench-read' };
    let n = 0;
    const baseline = async () => {
      const c = new pg.Client({ host: server.host, port: server.port, database: 'basin', user: 'basin', password: 'bench' });
      await c.connect();
      try {
        await c.query('DROP TABLE IF EXISTS public.copy_baseline');
        const t0 = performance.now();
        await c.query(`CREATE TABLE public.copy_baseline (${PG_COLUMNS})`);
        await pipeline(fs.createReadStream(csv, { highWaterMark: 1 << 20 }), c.query(copyFrom('COPY public.copy_baseline FROM STDIN WITH (FORMAT csv, HEADER true)')));
        const ms = performance.now() - t0;
        await c.query('DROP TABLE public.copy_baseline');
        return ms;
      } finally {
        await c.end();
      }
    };
    const wh = await client('postgres', { type: 'postgres', host: server.host, port: server.port, database: 'basin', user: 'basin' }, env);
    try {
      return await best(baseline, () => viaInterface(wh, ++n));
    } finally {
      await wh.close();
    }
  } finally {
    await server.stop();
  }
}

async function trino(): Promise<{ baseline: number; basin: number }> {
  const runDir = makeRunDir();
  process.env.BASIN_TEST_RUN_DIR = runDir;
  try {
    const { sharedTrino } = await import('../test/support/trino.js');
    const t = await sharedTrino();
    console.log(`trino: coordinator started in ${(t.startMs / 1000).toFixed(1)} s`);
    // the baseline's input: the same rows as Parquet in the lake, written by DuckDB (not timed)
    const parquet = path.join(t.lakeDir, 'bench_baseline');
    fs.mkdirSync(parquet, { recursive: true });
    const inst = await DuckDBInstance.create(':memory:');
    const dc = await inst.connect();
    await dc.run(`COPY (SELECT * FROM read_csv('${csv}', columns = {'id': 'BIGINT', 'created_at': 'TIMESTAMP', 'customer': 'VARCHAR', 'category': 'VARCHAR', 'amount': 'DOUBLE', 'quantity': 'INTEGER', 'active': 'BOOLEAN', 'comment': 'VARCHAR'})) TO '${path.join(parquet, 'part-0.parquet')}' (FORMAT parquet, COMPRESSION zstd)`);
    dc.closeSync();
    inst.closeSync();
    const cols = 'id bigint, created_at timestamp(6), customer varchar, category varchar, amount double, quantity integer, active boolean, comment varchar';
    const w = new TrinoLogin({ server: t.url, ...t.writer, ca: t.ca });
    await w.run(`CREATE SCHEMA ${t.stagingCatalog}.bench`);
    await w.run(`CREATE SCHEMA ${t.catalog}.bench`);
    await w.run(`CREATE TABLE ${t.stagingCatalog}.bench.events_parquet (${cols}) WITH (external_location = 'local:///bench_baseline', format = 'PARQUET')`);
    const baseline = async () => {
      await w.run(`DROP TABLE IF EXISTS ${t.catalog}.bench.events`);
      await w.run(`CREATE TABLE ${t.catalog}.bench.events (${cols})`);
      const t0 = performance.now();
      await w.run(`INSERT INTO ${t.catalog}.bench.events SELECT * FROM ${t.stagingCatalog}.bench.events_parquet`);
      return performance.now() - t0;
    };
    const u = new URL(t.url);
    let n = 0;
    const wh = await client(
      'trino',
      { type: 'trino', host: u.hostname, port: Number(u.port), ca_file: t.certificateFile, lake_dir: t.lakeDir, schema_prefix: 'bench_', user: t.writer.user, read_user: t.reader.user },
      { BASIN_TRINO_PASSWORD: t.writer.password, BASIN_TRINO_READ_PASSWORD: t.reader.password },
    );
    try {
      return await best(baseline, () => viaInterface(wh, ++n));
    } finally {
      await wh.close();
    }
  } finally {
    await stopSharedServers(runDir);
  }
}

/** each path twice, alternating (so neither gets only a warm or only a cold cache); the faster run of each */
async function best(baseline: () => Promise<number>, basin: () => Promise<number>): Promise<{ baseline: number; basin: number }> {
  const b1 = await baseline();
  const w1 = await basin();
  const w2 = await basin();
  const b2 = await baseline();
  return { baseline: Math.min(b1, b2), basin: Math.min(w1, w2) };
}

try {
  console.log(`writing a ${rows.toLocaleString()}-row CSV ...`);
  writeCsv(csv, rows);
  console.log(`${(fs.statSync(csv).size / 1048576).toFixed(0)} MB`);
  const runs: Record<string, () => Promise<{ baseline: number; basin: number }>> = { duckdb, postgres, trino };
  const own: Record<string, string> = { duckdb: 'CTAS read_csv', postgres: 'COPY FROM STDIN', trino: 'INSERT ... SELECT from Parquet' };
  for (const b of backends) {
    const r = await runs[b]!();
    console.log(`${b}: Basin staged load + swap ${(r.basin / 1000).toFixed(2)} s (${Math.round(rows / (r.basin / 1000)).toLocaleString()} rows/s) vs ${own[b]} ${(r.baseline / 1000).toFixed(2)} s: ratio ${(r.basin / r.baseline).toFixed(2)}x (goal <= 1.3x)`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
