// Serving-copy publish time for a warehouse of SIZE_MB (default 1024) against a plain file copy of
// the same file in the same run (the baseline). Part 2 of bench/tx.ts on its own, without dbt.
// Usage: node --conditions=development --import tsx bench/serving-copy.ts [SIZE_MB=1024]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Warehouse } from '@basin/core';

const SIZE_MB = Number(process.argv[2] ?? 1024);
const time = async (fn: () => Promise<unknown> | unknown) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-bench-serving-'));
const w = new Warehouse({ dbPath: path.join(dir, 'warehouse.db'), servingPath: path.join(dir, 'serving.db') });
await w.open();
const rows = Math.round((SIZE_MB * 1024 * 1024) / 28); // md5 strings and hashes: ~28 bytes/row on disk
await w.write((c) => c.run(`CREATE TABLE events AS SELECT range AS id, hash(range) AS h, md5(range::VARCHAR) AS s, (range % 1000)::INTEGER AS k FROM range(${rows})`));
await w.close();
await w.open();
const mb = fs.statSync(w.dbPath).size / 1048576;
const copyMs = await time(() => fs.copyFileSync(w.dbPath, path.join(dir, 'plain.db')));
fs.rmSync(path.join(dir, 'plain.db'));
const pubMs = await time(() => w.publishServingCopy());
console.log(`warehouse ${mb.toFixed(0)} MB (${rows} rows)`);
console.log(`plain file copy (baseline)  ${(copyMs / 1000).toFixed(2)} s`);
console.log(`serving-copy publish        ${(pubMs / 1000).toFixed(2)} s  (${w.lastPublishMode}; ratio to plain copy ${(pubMs / copyMs).toFixed(2)})`);
await w.close();
fs.rmSync(dir, { recursive: true, force: true });
