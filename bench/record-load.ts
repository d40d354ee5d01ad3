// Benchmark (not a test): three ways to bulk-load batches of flat JSON records into DuckDB, per
// 50,000-row batch, in one process: (1) what the loader does (NDJSON temp file + read_json),
// (2) DuckDB's appender fed column by column with data chunks (@duckdb/node-api), then a typed
// INSERT ... SELECT, (3) a CSV temp file read with declared column types. Prints records/s and the
// ratio to (1). This bench keeps node-api's per-value setColumnValues; the loader itself (issue 16)
// writes the appender's vectors directly (plugins/sync/src/load/record-batch.ts), see bench/rest-api.ts.
//   node --conditions=development --import tsx bench/record-load.ts [records]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBDataChunk, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';

const BATCH = 50_000;
const total = Number(process.argv[2] ?? 500_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-record-load-'));
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();

const base = Date.UTC(2024, 0, 1);
const batch: Record<string, unknown>[] = [];
for (let i = 0; i < BATCH; i++) batch.push({ id: i + 1, name: `customer ${i + 1}`, email: `c${i + 1}@example.com`, created_at: new Date(base + i * 60_000).toISOString(), amount: ((i * 37) % 100_000) / 100, active: i % 3 === 0, plan: ['free', 'pro', 'team'][i % 3] });
const COLS = [
  ['id', 'BIGINT', 'DOUBLE'],
  ['name', 'VARCHAR', 'VARCHAR'],
  ['email', 'VARCHAR', 'VARCHAR'],
  ['created_at', 'TIMESTAMP', 'VARCHAR'],
  ['amount', 'DOUBLE', 'DOUBLE'],
  ['active', 'BOOLEAN', 'BOOLEAN'],
  ['plan', 'VARCHAR', 'VARCHAR'],
] as const;

async function ndjson(): Promise<void> {
  const file = path.join(dir, 'b.ndjson');
  fs.writeFileSync(file, batch.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await c.run(`INSERT INTO t1 SELECT * FROM read_json(['${file}'], format='newline_delimited', union_by_name=true)`);
  fs.rmSync(file);
}

async function appender(): Promise<void> {
  await c.run(`CREATE OR REPLACE TEMP TABLE tmp (${COLS.map(([n, , carrier]) => `${n} ${carrier}`).join(', ')})`);
  const app = await c.createAppender('tmp', 'main', 'temp');
  const types = COLS.map((_, i) => app.columnType(i));
  for (let start = 0; start < batch.length; start += 2048) {
    const end = Math.min(batch.length, start + 2048);
    const chunk = DuckDBDataChunk.create(types, end - start);
    COLS.forEach(([name], ci) => chunk.setColumnValues(ci, batch.slice(start, end).map((r) => (r[name] ?? null) as DuckDBValue)));
    app.appendDataChunk(chunk);
  }
  app.flushSync();
  app.closeSync();
  await c.run(`INSERT INTO t2 SELECT ${COLS.map(([n, t]) => `CAST(${n} AS ${t})`).join(', ')} FROM temp.main.tmp`);
}

async function csv(): Promise<void> {
  const file = path.join(dir, 'b.csv');
  const q = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v));
  fs.writeFileSync(file, batch.map((r) => COLS.map(([n]) => q(r[n])).join(',')).join('\n') + '\n');
  await c.run(`INSERT INTO t3 SELECT * FROM read_csv('${file}', header=false, auto_detect=false, delim=',', quote='"', escape='"', allow_quoted_nulls=false, columns={${COLS.map(([n, t]) => `'${n}': '${t}'`).join(', ')}})`);
  fs.rmSync(file);
}

for (const t of ['t1', 't2', 't3']) await c.run(`CREATE TABLE ${t} (${COLS.map(([n, ty]) => `${n} ${ty}`).join(', ')})`);
const results: Array<[string, number]> = [];
for (const [name, fn] of [['ndjson + read_json (loader today)', ndjson], ['appender (data chunks)', appender], ['typed CSV + read_csv', csv]] as const) {
  await fn(); // warm up
  const t = performance.now();
  for (let n = 0; n < total; n += BATCH) await fn();
  results.push([name, performance.now() - t]);
}
const [, baseMs] = results[0]!;
console.log(`record load benchmark: ${total.toLocaleString()} records in batches of ${BATCH.toLocaleString()} (7 flat columns)`);
for (const [name, ms] of results) console.log(`  ${name.padEnd(36)} ${(ms / 1000).toFixed(2)} s  ${Math.round(total / (ms / 1000)).toLocaleString()} records/s  ${(baseMs / ms).toFixed(2)}x`);
fs.rmSync(dir, { recursive: true, force: true });
