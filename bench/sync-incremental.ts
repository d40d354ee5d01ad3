// Incremental re-sync: a local_files source with 100 files, then one small file added; the re-sync's
// time relative to the full load (target < 5%). Not a test.
//   node --conditions=development --import tsx bench/sync-incremental.ts [rowsPerFile=20000] [files=100]
import fs from 'node:fs';
import path from 'node:path';
import { benchProject, openProject, writeCsv } from './sync-common.js';

const rowsPerFile = Number(process.argv[2] ?? 20_000);
const files = Number(process.argv[3] ?? 100);
const { dir, dataDir } = benchProject();
try {
  for (let i = 0; i < files; i++) writeCsv(path.join(dataDir, `part-${String(i).padStart(3, '0')}.csv`), rowsPerFile, i * rowsPerFile + 1);
  const p = await openProject(dir);
  try {
    let t0 = performance.now();
    const full = await p.engine.run('bench');
    const fullMs = performance.now() - t0;
    if (full.status !== 'succeeded') throw new Error(`full load ${full.status}: ${full.error}`);
    await (p.engine as any).idle(); // let the serving copy of the full load finish first
    writeCsv(path.join(dataDir, 'part-new.csv'), 100, files * rowsPerFile + 1);
    t0 = performance.now();
    const inc = await p.engine.run('bench');
    const incMs = performance.now() - t0;
    if (inc.status !== 'succeeded' || inc.rows !== 100) throw new Error(`incremental ${inc.status} rows ${inc.rows}: ${inc.error}`);
    console.log(`full load: ${files} files x ${rowsPerFile.toLocaleString()} rows = ${full.rows.toLocaleString()} rows in ${(fullMs / 1000).toFixed(2)} s`);
    console.log(`re-sync after adding one 100-row file: ${(incMs / 1000).toFixed(3)} s (${inc.rows} rows)`);
    console.log(`ratio incremental / full: ${((incMs / fullMs) * 100).toFixed(2)}% (target < 5%)`);
  } finally {
    await p.close();
  }
} finally {
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
}
