#!/usr/bin/env node
// Installs everything Basin and its tests need, idempotently: npm packages, then each step in
// scripts/setup.d/ (Debian packages, the dbt virtualenv, ...), in name order. Safe to re-run.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `setup.mjs NAME...` runs only those steps; `--skip=a,b` runs all but those (npm run demo skips the
// test-only ones: chromium, postgresql)
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const skip = args.filter((a) => a.startsWith('--skip=')).flatMap((a) => a.slice('--skip='.length).split(','));
const step = (name) => (!only.length || only.includes(name)) && !skip.includes(name);

function npmInstall() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.basin-lock-hash');
  const hash = crypto.createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) {
    console.log('[setup] npm packages up to date');
    return;
  }
  // `npm install` rather than `npm ci`: npm 11's ci refuses lockfiles that lack other platforms'
  // optional binaries (npm/cli#4828); install honours the lock and tolerates that gap.
  console.log('[setup] npm install (native addons build from source; this takes a few minutes the first time)');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
  const after = crypto.createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
  fs.writeFileSync(stamp, after);
}

const setupBegan = Date.now();
if (step('npm')) {
  npmInstall();
  console.log(`[setup] npm done in ${((Date.now() - setupBegan) / 1000).toFixed(1)} s`);
}
const dir = path.join(root, 'scripts', 'setup.d');
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
  if (!step(f.replace(/^\d+-/, '').replace(/\.mjs$/, ''))) continue;
  console.log(`[setup] ${f}`);
  const began = Date.now();
  const mod = await import(pathToFileURL(path.join(dir, f)).href);
  if (typeof mod.default === 'function') await mod.default({ root });
  // each step's time, so a slow fresh-machine install shows which step to cache
  console.log(`[setup] ${f} done in ${((Date.now() - began) / 1000).toFixed(1)} s`);
}
console.log(`[setup] done in ${((Date.now() - setupBegan) / 1000).toFixed(1)} s`);
