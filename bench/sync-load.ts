// `basin sync` of ten CSV files END TO END FROM THE SHELL (the built `bin/basin.mjs`, a fresh process,
// no server running) against DuckDB's own `CREATE TABLE AS SELECT * FROM read_csv('*.csv')` through
// @duckdb/node-api in a fresh Node process (bench/lib/ctas.mjs), on the same files in the same run:
// the first sync (empty project) and `--full-refresh` (the table exists). Prints wall-time medians,
// the ratios (target <= 1.1: the median of each run's ratio to its CTAS run) and both peak RSS figures
// (target: Basin's <= the CTAS's). Not a test. Both processes run without NODE_EXTRA_CA_CERTS, which
// where the environment sets it adds ~90 ms to every Node start here (the certificates are parsed).
//   npm run build && node --conditions=development --import tsx bench/sync-load.ts [rows=5000000] [reps=3]
// The files (~54 bytes a row: 5M rows ~ 270 MB) are generated once into bench/.work/sync-load-<rows>/.
// The in-process comparison (engine.run vs CTAS) is bench/sync-load-inprocess.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { disableAuth, makeProject } from '@basin/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rows = Number(process.argv[2] ?? 5_000_000);
const reps = Number(process.argv[3] ?? 3);
const FILES = 10;
const CATS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

/** `n` narrow CSV rows (orders: id, time, customer, category, amount, quantity, flag), deterministic */
function writeCsv(file: string, from: number, n: number): void {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'id,created_at,customer,category,amount,quantity,active\n');
  const base = Date.UTC(2024, 0, 1);
  for (let i = 0; i < n; i += 50_000) {
    let s = '';
    for (let id = from + i; id < from + Math.min(n, i + 50_000); id++) {
      const ts = new Date(base + id * 61_000).toISOString().replace('T', ' ').slice(0, 19);
      s += `${id},${ts},customer_${(id * 7919) % 100_000},${CATS[id % 8]},${((id * 37) % 100_000) / 100},${id % 17},${id % 3 === 0}\n`;
    }
    fs.writeSync(fd, s);
  }
  fs.closeSync(fd);
}

function prepare(): { project: string; csvDir: string; bytes: number } {
  const work = path.join(root, 'bench', '.work', `sync-load-${rows}`);
  const project = path.join(work, 'project');
  const csvDir = path.join(project, 'data', 'orders');
  const done = path.join(work, 'files.done');
  if (!fs.existsSync(done)) {
    fs.rmSync(work, { recursive: true, force: true });
    const made = makeProject({ '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: orders\n    type: local_files\n    local_files:\n      directory: data/orders\n      file_pattern: "*.csv"\n' });
    disableAuth(made);
    // the comparison is the load: the dbt run a sync triggers (auto_tx) is the transform's own work, timed by bench/tx.ts
    const yml = path.join(made, '.basin', 'project.yml');
    fs.writeFileSync(yml, fs.readFileSync(yml, 'utf8').replace('platform:\n', 'platform:\n  auto_tx: false\n'));
    fs.mkdirSync(work, { recursive: true });
    fs.cpSync(made, project, { recursive: true });
    fs.rmSync(path.dirname(made), { recursive: true, force: true });
    fs.mkdirSync(csvDir, { recursive: true });
    const per = Math.ceil(rows / FILES);
    for (let f = 0; f < FILES; f++) writeCsv(path.join(csvDir, `orders_${String(f).padStart(2, '0')}.csv`), 1 + f * per, Math.min(per, rows - f * per));
    fs.writeFileSync(done, '');
  }
  const bytes = fs.readdirSync(csvDir).reduce((a, f) => a + fs.statSync(path.join(csvDir, f)).size, 0);
  return { project, csvDir, bytes };
}

interface Run {
  ms: number;
  rssMb: number;
  /** CPU seconds of the process (all threads): on 2 cores both keep the cores busy, so wall follows CPU */
  cpuS: number;
  out: string;
}

/** runs a command from the shell's point of view: wall time from spawn to exit, peak RSS via bench/lib/peak-rss.mjs */
function timed(exe: string, args: string[]): Promise<Run> {
  const rssFile = path.join(root, 'bench', '.work', `rss-${process.pid}`);
  fs.rmSync(rssFile, { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `--import=${path.join(root, 'bench', 'lib', 'peak-rss.mjs')}`, BENCH_RSS_FILE: rssFile, BASIN_DEV: '' };
  delete env.NODE_EXTRA_CA_CERTS;
  const t0 = performance.now();
  const child = spawn(exe, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${path.basename(exe)} ${args.join(' ')} exited ${code}:\n${out}`));
      const [rssMb, cpuS] = fs.readFileSync(rssFile, 'utf8').split(' ').map(Number);
      resolve({ ms, rssMb: rssMb!, cpuS: cpuS!, out });
    }),
  );
}

const { project, csvDir, bytes } = prepare();
const basin = path.join(root, 'bin', 'basin.mjs');
const ctasDb = path.join(root, 'bench', '.work', 'ctas.db');
const wipe = () => {
  for (const f of ['data/warehouse.db', 'data/warehouse.db.wal', 'data/serving.db', '.basin/state.db', '.basin/state.db-wal', '.basin/state.db-shm']) fs.rmSync(path.join(project, f), { force: true });
};
console.log(`${FILES} CSV files, ${rows.toLocaleString()} rows, ${Math.round(bytes / 1048576)} MB (${csvDir}); ${reps} runs, medians`);
const ctas: Run[] = [];
const first: Run[] = [];
const full: Run[] = [];
for (let i = 0; i < reps; i++) {
  // alternate the three so a busy moment of the shared machine hits them alike
  fs.rmSync(ctasDb, { force: true });
  fs.rmSync(`${ctasDb}.wal`, { force: true });
  ctas.push(await timed(process.execPath, [path.join(root, 'bench', 'lib', 'ctas.mjs'), path.join(csvDir, '*.csv'), ctasDb]));
  wipe();
  first.push(await timed(basin, ['sync', 'orders', '--project', project]));
  full.push(await timed(basin, ['sync', 'orders', '--full-refresh', '--project', project]));
  const show = (r: Run) => `${(r.ms / 1000).toFixed(2)} s (CPU ${r.cpuS.toFixed(2)} s) ${r.rssMb} MB`;
  console.log(`  run ${i + 1}: CTAS ${show(ctas[i]!)} | first sync ${show(first[i]!)} | --full-refresh ${show(full[i]!)} | ratios ${(first[i]!.ms / ctas[i]!.ms).toFixed(3)} / ${(full[i]!.ms / ctas[i]!.ms).toFixed(3)}`);
}
fs.rmSync(ctasDb, { force: true });
fs.rmSync(path.join(root, 'bench', '.work', `rss-${process.pid}`), { force: true });
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const c = med(ctas.map((r) => r.ms));
const cr = med(ctas.map((r) => r.rssMb));
for (const [name, runs] of [['first sync', first], ['--full-refresh', full]] as const) {
  const m = med(runs.map((r) => r.ms));
  const r = med(runs.map((x) => x.rssMb));
  const cpu = med(runs.map((x) => x.cpuS)) / med(ctas.map((x) => x.cpuS));
  // the verdict: the median of each run's ratio to the CTAS run just before it. On a shared machine
  // whose speed drifts by 10-20% within minutes, adjacent runs compare like with like; the ratio of
  // the medians (printed too) mixes runs from different minutes.
  const paired = med(runs.map((x, i) => x.ms / ctas[i]!.ms));
  console.log(`basin sync (${name}): ${(m / 1000).toFixed(2)} s, peak RSS ${r} MB | CTAS ${(c / 1000).toFixed(2)} s, peak RSS ${cr} MB | ratio ${paired.toFixed(3)} (median of per-run ratios; target <= 1.1 ${paired <= 1.1 ? 'MET' : 'MISSED'}; ratio of medians ${(m / c).toFixed(3)}), RSS ${r <= cr ? 'MET' : 'MISSED'}, CPU ratio ${cpu.toFixed(3)}`);
}
console.log(`last --full-refresh output:\n${full.at(-1)!.out.trim().replace(/^/gm, '  | ')}`);
