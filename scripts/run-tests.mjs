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
// servers shared by the whole run (Trino, PostgreSQL) record themselves here; stopped when the run ends
const runDir = makeRunDir();
const child = spawn(
  process.execPath,
  ['--conditions=development', '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...passthrough, ...files],
  {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, BASIN_TEST_RUN_DIR: runDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=development`.trim() },
  },
);
// Ctrl-C reaches the test runner through the terminal's process group; we stay to stop the servers
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('close', async (code, sig) => {
  const stopped = await stopSharedServers(runDir);
  if (stopped.length) console.log(`[run-tests] stopped the shared servers: ${stopped.join(', ')}`);
  process.exit(code ?? 1);
});
