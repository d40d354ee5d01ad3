#!/usr/bin/env node
// Runs every *.test.ts under the given directories (default: the whole repo) with node's test
// runner, TypeScript through tsx and workspace packages resolved to their sources.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRunDir, stopSharedServers } from './lib/shared-servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dirs = args.filter((a) => !a.startsWith('--'));
const passthrough = args.filter((a) => a.startsWith('--'));
const skip = new Set(['node_modules', 'dist', '.turbo', '.git', '.venv-tx', 'bench']);

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(e.name) || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const files = (dirs.length ? dirs : [root])
  .flatMap((d) => (fs.statSync(path.resolve(d)).isFile() ? [path.resolve(d)] : walk(path.resolve(d), [])))
  .sort();
if (!files.length) {
  console.log('no test files found');
  process.exit(0);
}
const concurrency = process.env.BASIN_TEST_CONCURRENCY ?? '2';
// A file whose first lines say `// run-tests: alone` runs after the others, with no other test file
// beside it: the Chromium tests of Superset dashboards timed out on a 2-core machine while another
// Superset and the Trino coordinator ran next to them.
const ALONE = /^\/\/ run-tests: alone\b/m;
const alone = files.filter((f) => ALONE.test(fs.readFileSync(f, 'utf8').slice(0, 4000)));
const together = files.filter((f) => !alone.includes(f));
// servers shared by the whole run (Trino, PostgreSQL) record themselves here; stopped when the run ends
const runDir = makeRunDir();
let current = null;

function runPhase(list, conc) {
  return new Promise((resolve) => {
    current = spawn(
      process.execPath,
      ['--conditions=development', '--import', 'tsx', '--test', `--test-concurrency=${conc}`, '--test-reporter=spec', ...passthrough, ...list],
      {
        stdio: 'inherit',
        cwd: root,
        env: { ...process.env, BASIN_TEST_RUN_DIR: runDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=development`.trim() },
      },
    );
    current.on('close', (code, sig) => resolve(code ?? (sig ? 1 : 0)));
  });
}

// Ctrl-C reaches the test runner through the terminal's process group; we stay to stop the servers
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => ((interrupted = true), current?.kill(sig)));
let code = 0;
if (together.length) code = await runPhase(together, concurrency);
if (alone.length && !interrupted) {
  console.log(`[run-tests] ${alone.length} file(s) marked "run-tests: alone", one at a time: ${alone.map((f) => path.relative(root, f)).join(', ')}`);
  code = (await runPhase(alone, '1')) || code;
}
const stopped = await stopSharedServers(runDir);
if (stopped.length) console.log(`[run-tests] stopped the shared servers: ${stopped.join(', ')}`);
process.exit(code);
