// Bulk CSV load IN PROCESS: Basin's local_files sync (engine.run) vs DuckDB's own CREATE TABLE AS read_csv of
// the same file, each in a fresh child process (so peak RSS is per load). Not a test. The end-to-end
// comparison from the shell (what a user sees) is bench/sync-load.ts.
//   node --conditions=development --import tsx bench/sync-load-inprocess.ts [rows=1000000] [rssRows=rows]
//   node --conditions=development --import tsx bench/sync-load-inprocess.ts --rss [rows=10000000]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { benchProject, mb, openProject, writeCsv } from './sync-common.js';

const self = fileURLToPath(import.meta.url);

async function child(mode: string, projectDir: string): Promise<void> {
  const file = path.join(projectDir, 'data', 'bench', 'data.csv');
  let t0 = performance.now();
  let rows = 0;
  if (mode === 'duckdb') {
    const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-duck-'));
    const inst = await DuckDBInstance.create(path.join(dbDir, 'w.db'));
    const c = await inst.connect();
    t0 = performance.now();
    await c.run(`CREATE TABLE t AS SELECT * FROM read_csv('${file}')`);
    rows = Number((await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0]![0]);
    c.closeSync();
    inst.closeSync();
    fs.rmSync(dbDir, { recursive: true, force: true });
  } else {
    const p = await openProject(projectDir);
    const rssBooted = mb(process.memoryUsage().rss);
    t0 = performance.now();
    const r = await p.engine.run('bench');
    if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
    rows = r.rows;
    const loaded = performance.now() - t0; // the sync record is final: data swapped in and committed
    const rssAtLoad = mb(process.resourceUsage().maxRSS * 1024);
    await p.close(); // waits for the serving-copy publish too
    process.stdout.write(JSON.stringify({ mode, ms: loaded, ms_with_publish: performance.now() - t0, rows, maxrss_load_mb: rssAtLoad, rss_booted_mb: rssBooted, maxrss_mb: mb(process.resourceUsage().maxRSS * 1024) }) + '\n');
    return;
  }
  process.stdout.write(JSON.stringify({ mode, ms: performance.now() - t0, rows, maxrss_mb: mb(process.resourceUsage().maxRSS * 1024) }) + '\n');
}

function run(mode: string, csvDir: string): any {
  const r = spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', self, '--child', mode, csvDir], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${mode} child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

if (process.argv[2] === '--child') {
  await child(process.argv[3]!, process.argv[4]!);
} else if (process.argv[2] === '--rss') {
  // only the peak-RSS measurement of one Basin load of N rows
  const n = Number(process.argv[3] ?? 10_000_000);
  const rss = benchProject();
  try {
    writeCsv(path.join(rss.dataDir, 'data.csv'), n);
    const big = run('basin', rss.dir);
    console.log(`peak RSS of a ${n.toLocaleString()}-row Basin load (${mb(fs.statSync(path.join(rss.dataDir, 'data.csv')).size)} MB CSV): ${big.maxrss_load_mb} MB until the sync finished, ${big.maxrss_mb} MB including the serving-copy publish (target < 500 MB; the booted process before the load: ${big.rss_booted_mb} MB); load ${(big.ms / 1000).toFixed(2)} s`);
  } finally {
    fs.rmSync(path.dirname(rss.dir), { recursive: true, force: true });
  }
} else {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const rssRows = Number(process.argv[3] ?? rows);
  const { dir, dataDir } = benchProject();
  const dirs = [dir];
  try {
    const csvDir = dir;
    writeCsv(path.join(dataDir, 'data.csv'), rows);
    const size = fs.statSync(path.join(dataDir, 'data.csv')).size;
    console.log(`CSV: ${rows.toLocaleString()} rows, ${mb(size)} MB`);
    // the machine is shared: alternate the two and keep the median of each
    const reps = Number(process.env.BENCH_REPS ?? 3);
    const ducks: any[] = [];
    const basins: any[] = [];
    for (let i = 0; i < reps; i++) {
      ducks.push(run('duckdb', csvDir));
      basins.push(run('basin', csvDir));
      console.log(`  run ${i + 1}: duckdb ${(ducks[i].ms / 1000).toFixed(2)} s, basin ${(basins[i].ms / 1000).toFixed(2)} s`);
      for (const f of ['data/warehouse.db', 'data/warehouse.db.wal', 'data/serving.db', '.basin/state.db', '.basin/state.db-wal', '.basin/state.db-shm']) fs.rmSync(path.join(dir, f), { force: true });
    }
    const median = (xs: any[]) => [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)];
    const duck = median(ducks);
    const basin = median(basins);
    console.log(`DuckDB CREATE TABLE AS read_csv: ${(duck.ms / 1000).toFixed(2)} s median (peak RSS ${duck.maxrss_mb} MB)`);
    console.log(`Basin local_files sync:          ${(basin.ms / 1000).toFixed(2)} s median (until the serving copy is published: ${(basin.ms_with_publish / 1000).toFixed(2)} s; peak RSS ${basin.maxrss_mb} MB)`);
    console.log(`ratio Basin / DuckDB: ${(basin.ms / duck.ms).toFixed(3)} (target <= 1.2)`);
    if (rssRows !== rows) {
      const rss = benchProject();
      dirs.push(rss.dir);
      fs.rmSync(path.join(dataDir, 'data.csv'));
      writeCsv(path.join(rss.dataDir, 'data.csv'), rssRows);
      const big = run('basin', rss.dir);
      console.log(`peak RSS of a ${rssRows.toLocaleString()}-row Basin load: ${big.maxrss_mb} MB (target < 500 MB), ${(big.ms / 1000).toFixed(2)} s`);
    } else console.log(`peak RSS of the ${rows.toLocaleString()}-row Basin load: ${basin.maxrss_mb} MB (target < 500 MB)`);
  } finally {
    for (const d of dirs) fs.rmSync(path.dirname(d), { recursive: true, force: true });
  }
}
