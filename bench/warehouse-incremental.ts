// An incremental sync's hand-over to a server warehouse (issue 22): 1% new rows into a 5M-row table,
// sent as the sync's rows only (DuckDB unloads `_basin_sync_id = <sync>`, the server stages them and
// appends them, or merges them on the key, in the swap: plugins/sync/src/load/server-warehouse.ts) vs
// the whole-table copy it replaces (unload everything, stage it, swap it in as a replace), in the same
// run, on each backend
// (PostgreSQL: Debian's server started here; Trino: the test support's coordinator). Not a test.
//   node --conditions=development --import tsx bench/warehouse-incremental.ts [rows=5000000] [backends=postgres,trino]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type UnloadFilter, type WarehouseClient } from '@basin/core';
import { startPostgres } from '../test/support/postgres.js';
import { makeRunDir, stopSharedServers } from '../scripts/lib/shared-servers.mjs';
import { clientFor } from '../test/support/warehouse-backends.js';

const rows = Number(process.argv[2] ?? 5_000_000);
const backends = (process.argv[3] ?? 'postgres,trino').split(',');
const increment = Math.round(rows / 100);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wh-inc-'));
const SCHEMA = 'raw_bench';

/** a client of the backend the section names, as a project gets it, in a folder of its own under `work` */
const client = (type: string, section: Record<string, unknown>, env: Record<string, string>): Promise<WarehouseClient> =>
  clientFor(fs.mkdtempSync(path.join(work, `${type}-`)), { section, env });

/**
 * the local DuckDB after the incremental sync committed: `rows` rows of sync s1 and 1% more of sync
 * s2, half of which carry ids of s1 rows (updates when merged on id, added when appended)
 */
async function localWarehouse(): Promise<WarehouseClient> {
  const local = await client('duckdb', { type: 'duckdb' }, {});
  await local.execute(`CREATE SCHEMA ${SCHEMA}`);
  await local.execute(`CREATE TABLE ${SCHEMA}.events AS SELECT range AS id, TIMESTAMP '2026-01-01' + to_seconds(range) AS created_at, 'customer_' || (range % 50000) AS customer,
    ['books','games','music','tools'][1 + range % 4] AS category, (range % 997) / 10.0 AS amount, CAST(range % 7 AS INTEGER) AS quantity, range % 3 = 0 AS active,
    'comment ' || md5(CAST(range AS VARCHAR)) AS comment, CASE WHEN range < ${rows} THEN 's1' ELSE 's2' END AS _basin_sync_id FROM range(${rows + increment})`);
  await local.execute(`UPDATE ${SCHEMA}.events SET id = id - ${Math.floor(increment / 2)} WHERE _basin_sync_id = 's2'`);
  return local;
}

/** one hand-over as server-warehouse.ts does it: unload (all, or the sync's rows), stage, swap; wall ms and rows sent */
type Mode = 'append' | 'merge' | 'full';

async function ship(local: WarehouseClient, server: WarehouseClient, syncId: string, mode: Mode): Promise<{ ms: number; rows: number }> {
  const format = server.capabilities.bulkFormats.find((f) => local.capabilities.unloadFormats.includes(f))!;
  const file = { path: path.join(work, `ship-${syncId}.${format}`), format };
  const columns = (await local.describeTable(SCHEMA, 'events'))!;
  const filter: UnloadFilter | undefined = mode === 'full' ? undefined : { column: '_basin_sync_id', equals: 's2' };
  const staging = `_basin_staging__events__${syncId}`;
  const t0 = performance.now();
  const { rows: sent } = await local.unload(SCHEMA, 'events', file, filter);
  await server.loadStaged({ schema: SCHEMA, staging, file, columns });
  fs.rmSync(file.path, { force: true });
  const disposition = mode === 'full' ? 'replace' : mode;
  await server.swap({ source: 'bench', syncId, resources: [{ schema: SCHEMA, table: 'events', staging, disposition, primaryKey: mode === 'merge' ? ['id'] : undefined }], cursor: { id: rows + increment } });
  return { ms: performance.now() - t0, rows: sent };
}

/** the server as the previous sync left it: the s1 rows only (not timed) */
async function baseState(local: WarehouseClient, server: WarehouseClient, n: number): Promise<void> {
  const file = { path: path.join(work, `base-${n}.csv`), format: 'csv' as const };
  const parquet = server.capabilities.bulkFormats[0] === 'parquet';
  const f = parquet ? { path: file.path.replace(/csv$/, 'parquet'), format: 'parquet' as const } : file;
  await local.unload(SCHEMA, 'events', f, { column: '_basin_sync_id', equals: 's1' });
  await server.loadStaged({ schema: SCHEMA, staging: `_basin_staging__events__base${n}`, file: f, columns: (await local.describeTable(SCHEMA, 'events'))! });
  fs.rmSync(f.path, { force: true });
  await server.swap({ source: 'bench', syncId: `base-${n}`, resources: [{ schema: SCHEMA, table: 'events', staging: `_basin_staging__events__base${n}`, disposition: 'replace' }] });
}

async function count(server: WarehouseClient): Promise<number> {
  return Number((await server.query(`SELECT count(*) FROM ${server.capabilities.qualify(SCHEMA, 'events')}`, { timeoutMs: 600_000, maxRows: 1 })).rows[0]![0]);
}

/** append, merge and full, each from the same base state; twice, the second round reversed; the faster of each */
async function compare(local: WarehouseClient, server: WarehouseClient): Promise<Record<Mode, { ms: number; rows: number }>> {
  const out = { append: { ms: Infinity, rows: 0 }, merge: { ms: Infinity, rows: 0 }, full: { ms: Infinity, rows: 0 } };
  const modes: Mode[] = ['append', 'merge', 'full'];
  let n = 0;
  for (let i = 0; i < 2; i++) {
    for (const mode of i === 0 ? modes : [...modes].reverse()) {
      await baseState(local, server, n++);
      const r = await ship(local, server, `${mode}-${i}`, mode);
      const have = await count(server);
      const expected = mode === 'merge' ? rows + increment - Math.floor(increment / 2) : rows + increment;
      if (have !== expected) throw new Error(`${mode}: the server has ${have} rows, expected ${expected}`);
      out[mode] = { ms: Math.min(out[mode].ms, r.ms), rows: r.rows };
    }
  }
  return out;
}

async function postgres(local: WarehouseClient) {
  const pg = await startPostgres();
  try {
    pg.psql(`CREATE ROLE basin LOGIN PASSWORD 'bench' CREATEROLE; CREATE DATABASE basin OWNER basin;`);
    const server = await client('postgres', { type: 'postgres', host: pg.host, port: pg.port, database: 'basin', user: 'basin' }, { BASIN_WAREHOUSE_PASSWORD: 'bench', BASIN_WAREHOUSE_READ_PASSWORD: 'bench-read' });
    try {
      return await compare(local, server);
    } finally {
      await server.close();
    }
  } finally {
    await pg.stop();
  }
}

async function trino(local: WarehouseClient) {
  const runDir = makeRunDir();
  process.env.BASIN_TEST_RUN_DIR = runDir;
  try {
    const { sharedTrino } = await import('../test/support/trino.js');
    const t = await sharedTrino();
    const u = new URL(t.url);
    const server = await client(
      'trino',
      { type: 'trino', host: u.hostname, port: Number(u.port), ca_file: t.certificateFile, lake_dir: t.lakeDir, schema_prefix: 'inc_', user: t.writer.user, read_user: t.reader.user },
      { BASIN_TRINO_PASSWORD: t.writer.password, BASIN_TRINO_READ_PASSWORD: t.reader.password },
    );
    try {
      return await compare(local, server);
    } finally {
      await server.close();
    }
  } finally {
    await stopSharedServers(runDir);
  }
}

const cpu0 = process.cpuUsage();
try {
  console.log(`local DuckDB: ${rows.toLocaleString()} rows of the previous syncs + ${increment.toLocaleString()} rows (1%) of the incremental sync, half of them updates of existing ids`);
  const local = await localWarehouse();
  try {
    const runs: Record<string, (l: WarehouseClient) => ReturnType<typeof postgres>> = { postgres, trino };
    for (const b of backends) {
      const r = await runs[b]!(local);
      const pct = (x: number) => `${((x / r.full.ms) * 100).toFixed(1)}% of the copy, ${(r.full.ms / x).toFixed(1)}x faster`;
      console.log(`${b}: whole-table copy ${(r.full.ms / 1000).toFixed(2)} s (${r.full.rows.toLocaleString()} rows sent, swapped)`);
      console.log(`${b}:   incremental append ${(r.append.ms / 1000).toFixed(2)} s (${r.append.rows.toLocaleString()} rows sent): ${pct(r.append.ms)}`);
      console.log(`${b}:   incremental merge on id ${(r.merge.ms / 1000).toFixed(2)} s (${r.merge.rows.toLocaleString()} rows sent): ${pct(r.merge.ms)}`);
    }
  } finally {
    await local.close();
  }
} finally {
  const cpu = process.cpuUsage(cpu0);
  console.log(`bench process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  fs.rmSync(work, { recursive: true, force: true });
}
