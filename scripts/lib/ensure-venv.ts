// Creates or updates one companion virtualenv: `node --conditions=development --import tsx
// scripts/lib/ensure-venv.ts <module> <export>` where the export is a core ManagedVenv. Run as a child
// of setup.mjs because workspace packages resolve to their sources only under the development condition.
//
// The install's shared venv (<install root>/.cache/<folder>) is made as a link to a venv kept under
// ~/.cache/basin/venvs/ (or $BASIN_CACHE_DIR/venvs), named by the pins and the Python it runs on: a
// fresh clone on a machine that built it once links it in seconds instead of installing for minutes
// (Superset alone ~2 min). pip writes absolute paths into a venv, so it is linked, never copied. A
// real folder already there (an install from before this, or one `basin tx setup` made) is kept and
// updated in place. BASIN_VENV_CACHE=0 builds the folder in the install as before.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ManagedVenv } from '@basin/core';
import { cacheDir } from './cache-dir.mjs';

const [modulePath, exportName] = process.argv.slice(2);
if (!modulePath || !exportName) {
  console.error('usage: ensure-venv.ts <module> <export>');
  process.exit(2);
}
const mod = (await import(pathToFileURL(path.resolve(modulePath)).href)) as Record<string, ManagedVenv>;
const venv = mod[exportName];
if (!venv) throw new Error(`${modulePath} has no export ${exportName}`);
const { dir, kind } = venv.locate(undefined);
const tag = `[${venv.spec.tool}-venv]`;
const log = (line: string) => console.log(`${tag} ${line}`);

/** the kept venv for these pins on this Python (version and install prefix: a venv links to its base) */
function keptVenvDir(): string {
  const python = process.env.BASIN_PYTHON || 'python3';
  const r = spawnSync(python, ['-c', 'import sys; print(sys.version); print(sys.base_prefix)'], { encoding: 'utf8' });
  const key = crypto.createHash('sha256').update(`${venv.requirementsHash()}\n${r.stdout ?? ''}`).digest('hex').slice(0, 16);
  return path.join(cacheDir(), 'venvs', `${venv.spec.cacheFolder}-${key}`);
}

/** points `link` at `target`, replacing what is there in one rename */
function linkTo(link: string, target: string): void {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  const tmp = `${link}.${process.pid}.link`;
  fs.rmSync(tmp, { force: true });
  fs.symlinkSync(target, tmp, 'dir');
  fs.renameSync(tmp, link);
}

/** where to install: the linked kept venv, the install's own folder, or a folder named by the environment */
function installDir(): { at: string; kept?: string } {
  if (kind !== 'shared' || process.env.BASIN_VENV_CACHE === '0') return { at: dir };
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    // linked by an earlier setup: more pins (a server warehouse's drivers) go into the same kept venv
    if (fs.existsSync(dir)) {
      const kept = fs.realpathSync(dir);
      return { at: kept, kept };
    }
    fs.rmSync(dir, { force: true }); // its kept venv was removed: link a new one
  } else if (st) {
    return { at: dir };
  }
  const kept = keptVenvDir();
  return { at: kept, kept };
}

try {
  const { at, kept } = installDir();
  const { changed } = await venv.ensure(at, log);
  if (kept && !fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) linkTo(dir, kept);
  console.log(`[setup] ${venv.spec.tool} virtualenv ${changed ? 'installed' : 'up to date'} at ${dir}${kept ? ` (linked to ${kept})` : ''}`);
} catch (e) {
  console.error(`[setup] ${(e as Error).message}`);
  process.exit(1);
}
