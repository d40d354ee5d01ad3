#!/usr/bin/env node
// Installs everything Basin and its tests need, idempotently: npm packages, then each step in
// scripts/setup.d/ (Debian packages, the dbt virtualenv, ...), in name order. Safe to re-run.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheDir } from './lib/cache-dir.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `setup.mjs NAME...` runs only those steps; `--skip=a,b` runs all but those (npm run demo skips the
// test-only ones: chromium, postgresql)
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const skip = args.filter((a) => a.startsWith('--skip=')).flatMap((a) => a.slice('--skip='.length).split(','));
const step = (name) => (!only.length || only.includes(name)) && !skip.includes(name);

// better-sqlite3's install fetches a prebuilt addon from GitHub, which this kind of machine cannot
// reach, and then compiles SQLite from source: ~130 s of one core on a fresh clone. The addon built
// once is kept as the prebuilt archive prebuild-install looks for in a local folder (its
// `npm_config_<package>_local_prebuilds`), under ~/.cache/basin/prebuilds with a SHA256 file beside it;
// an archive whose checksum does not match is removed, and the next install builds from source again.
// prebuild-install loads the unpacked addon before it keeps it, so a broken one is never used.
const prebuildsDir = path.join(cacheDir(), 'prebuilds');
const KEPT_ADDONS = [{ pkg: 'better-sqlite3', binary: 'build/Release/better_sqlite3.node' }];
const sha256File = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const envPrefix = (pkg) => `npm_config_${pkg.replace(/[^a-zA-Z0-9]/g, '_').replace(/^_/, '')}`;

/** the archive name prebuild-install asks for (its default package_name template; glibc Linux has no libc part) */
function prebuildName(pkg, version) {
  return `${pkg}-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
}

/** drops kept archives whose bytes no longer match their recorded checksum */
function checkKeptAddons() {
  if (!fs.existsSync(prebuildsDir)) return;
  for (const f of fs.readdirSync(prebuildsDir).filter((n) => n.endsWith('.tar.gz'))) {
    const archive = path.join(prebuildsDir, f);
    const sumFile = `${archive}.sha256`;
    if (fs.existsSync(sumFile) && fs.readFileSync(sumFile, 'utf8').trim() === sha256File(archive)) continue;
    console.log(`[setup] ${f} in ${prebuildsDir} fails its checksum; removed (the addon is built from source again)`);
    fs.rmSync(archive, { force: true });
    fs.rmSync(sumFile, { force: true });
  }
}

/** keeps each addon npm just built from source, for the next fresh install on this machine */
function keepBuiltAddons() {
  for (const { pkg, binary } of KEPT_ADDONS) {
    const dir = path.join(root, 'node_modules', pkg);
    if (!fs.existsSync(path.join(dir, binary))) continue;
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const archive = path.join(prebuildsDir, prebuildName(pkg, version));
    if (fs.existsSync(archive)) continue;
    fs.mkdirSync(prebuildsDir, { recursive: true });
    const tmp = `${archive}.${process.pid}.tmp`;
    try {
      execFileSync('tar', ['-czf', tmp, '-C', dir, binary]);
      fs.writeFileSync(`${archive}.sha256`, `${sha256File(tmp)}\n`);
      fs.renameSync(tmp, archive);
      console.log(`[setup] kept the ${pkg} addon built here at ${archive}`);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      console.log(`[setup] could not keep the ${pkg} addon (${e.message}); the next fresh install builds it again`);
    }
  }
}

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
  console.log('[setup] npm install (a native addon builds from source the first time on a machine: a few minutes)');
  checkKeptAddons();
  const localPrebuilds = Object.fromEntries(KEPT_ADDONS.map(({ pkg }) => [`${envPrefix(pkg)}_local_prebuilds`, prebuildsDir]));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit', env: { ...process.env, ...localPrebuilds } });
  keepBuiltAddons();
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
