// Transformations bench. Two parts:
//  1. Overhead Basin adds around `dbt run` on the demo project (its dbt models over its generated data):
//     the handoff (drain queue + CHECKPOINT + close, then reopen) and the serving-copy publish, as a
//     ratio of the dbt run itself. dbt is invoked exactly as the txRunner does (JSON logs, same env).
//  2. Serving-copy publish time for a warehouse of SIZE_MB (default 1024), against a plain file copy
//     of the same warehouse file (the baseline).
// Usage: node --conditions=development --import tsx bench/tx.ts [SIZE_MB=1024] [RUNS=3]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Warehouse, literal } from '@basin/core';
import { bootApp, disableAuth, makeProject, tempDir } from '@basin/test';
import { ensureVenv, generateStaging, locateVenv, dbtExecutable } from '@basin/plugin-transform';
import { runDbt } from '../plugins/transform/src/dbt-process.js';

const SIZE_MB = Number(process.argv[2] ?? 1024);
const RUNS = Number(process.argv[3] ?? 3);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = async (fn: () => Promise<unknown>) => {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

// ---- part 1: the demo project ---------------------------------------------------------------
const demo = path.join(root, 'examples/demo');
const uploads = path.join(demo, 'data/uploads');
if (!fs.existsSync(path.join(uploads, 'orders'))) execFileSync(process.execPath, [path.join(demo, 'generate-data.mjs')], { stdio: 'inherit' });
const { dir: venv } = locateVenv();
await ensureVenv(venv, (l) => console.log(`[venv] ${l}`));

const dir = makeProject();
disableAuth(dir);
fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\ntx:\n  docs_after_run: false\n');
for (const layer of ['intermediate', 'marts']) fs.cpSync(path.join(demo, 'tx/models', layer), path.join(dir, 'tx/models', layer), { recursive: true });
const app = await bootApp(dir);
const txDir = path.join(dir, 'tx');
const readers: Record<string, string> = { customers: 'read_csv_auto', orders: 'read_csv_auto', order_items: 'read_json_auto', products: 'read_parquet' };
for (const [source, reader] of Object.entries(readers)) {
  await app.warehouse.write(async (c) => {
    await c.run(`CREATE SCHEMA IF NOT EXISTS raw_${source}`);
    await c.run(`CREATE OR REPLACE TABLE raw_${source}.${source} AS SELECT * FROM ${reader}(${literal(path.join(uploads, source, '*'))})`);
  });
  await generateStaging({ warehouse: app.warehouse, txDir, source, now: new Date() });
}
const rows = await app.warehouse.query<{ n: number }>("SELECT sum(estimated_size)::BIGINT AS n FROM duckdb_tables() WHERE schema_name LIKE 'raw_%'");
console.log(`demo project: ${fs.readdirSync(path.join(txDir, 'models/marts')).filter((f) => f.endsWith('.sql')).length} marts, raw rows ≈ ${rows[0]!.n}`);

const runner = app.container.resolve<any>('txRunner');
const first = await runner.run({ trigger: 'bench' }); // warm-up: parse, create everything
if (first.status !== 'succeeded') throw new Error(`demo dbt run failed: ${first.error}`);

const dbtMs: number[] = [];
const handoffMs: number[] = [];
const publishMs: number[] = [];
const fullMs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  // dbt alone, as the runner invokes it (the server's handle closed around it, not timed)
  let inner = 0;
  await app.warehouse.handoff(async () => {
    inner = await time(() => runDbt({ dbt: dbtExecutable(venv), projectDir: txDir, args: ['run'], dbPath: app.warehouse.dbPath, timeoutMs: 600_000 }));
  });
  dbtMs.push(inner);
  // what Basin adds: the handoff itself (drain, checkpoint, close, reopen) with nothing inside, and the publish
  handoffMs.push(await time(() => app.warehouse.handoff(async () => undefined)));
  publishMs.push(await time(() => app.warehouse.publishServingCopy()));
  // the whole thing through the txRunner (queue, handoff, dbt, results, history, publish)
  fullMs.push(await time(() => runner.run({ trigger: 'bench' })));
}
await app.close();
const dbt = median(dbtMs);
const added = median(handoffMs) + median(publishMs);
console.log(`\n[1] demo project, ${RUNS} runs (medians)`);
console.log(`  dbt run alone                 ${fmt(dbt)}`);
console.log(`  handoff (checkpoint/close/reopen) ${fmt(median(handoffMs))}`);
console.log(`  serving-copy publish          ${fmt(median(publishMs))}`);
console.log(`  txRunner.run end to end       ${fmt(median(fullMs))}`);
console.log(`  added by Basin / dbt run      ${(added / dbt).toFixed(3)}  (end to end / dbt alone: ${(median(fullMs) / dbt).toFixed(3)})`);

// ---- part 2: serving copy of a big warehouse -------------------------------------------------
const big = tempDir('basin-bench-tx-');
const w = new Warehouse({ dbPath: path.join(big, 'warehouse.db'), servingPath: path.join(big, 'serving.db') });
await w.open();
// md5 strings and hashes compress poorly: about 28 bytes per row on disk (measured)
const targetRows = Math.round((SIZE_MB * 1024 * 1024) / 28);
const genMs = await time(() =>
  w.write((c) => c.run(`CREATE TABLE events AS SELECT range AS id, hash(range) AS h, md5(range::VARCHAR) AS s, (range % 1000)::INTEGER AS k FROM range(${targetRows})`)),
);
await w.close();
await w.open();
const sizeMb = fs.statSync(w.dbPath).size / 1024 / 1024;
console.log(`\n[2] warehouse of ${sizeMb.toFixed(0)} MB (${targetRows} rows, generated in ${fmt(genMs)})`);
const copyMs = await time(async () => fs.copyFileSync(w.dbPath, path.join(big, 'plain-copy.db')));
fs.rmSync(path.join(big, 'plain-copy.db'));
const pubMs = await time(() => w.publishServingCopy());
console.log(`  plain file copy (baseline)    ${fmt(copyMs)}`);
console.log(`  serving-copy publish          ${fmt(pubMs)}  (ratio to plain copy: ${(pubMs / copyMs).toFixed(2)}; serving file ${(fs.statSync(w.servingPath).size / 1024 / 1024).toFixed(0)} MB)`);
await w.close();
fs.rmSync(big, { recursive: true, force: true });
