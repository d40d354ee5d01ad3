// The Python virtualenv that holds dbt. One shared venv per Basin install (tests create many projects),
// keyed by a hash of the pinned requirements so a pin change rebuilds it; a project-local `.venv-tx/`
// wins when present. Node built-ins only: scripts/setup.d/30-dbt-venv.mjs imports this file too.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Pinned toolchain. Python duckdb MUST equal @duckdb/node-api's engine version (1.5.6): a newer
 * Python duckdb may write a storage format the server cannot read (test/compat.test.ts checks it).
 * dbt-core 1.12.1+ needs dbt-core-experimental-parser >= 2.0.0b1, whose PyPI releases are source
 * archives that download a wheel from GitHub while building (no network but the registries here);
 * 2.0.0a4 is the newest with a wheel on PyPI and dbt-core 1.12.0 is the newest 1.12 that accepts it.
 */
export const TX_REQUIREMENTS = ['dbt-core==1.12.0', 'dbt-core-experimental-parser==2.0.0a4', 'dbt-duckdb==1.11.1', 'duckdb==1.5.6'] as const;
const STAMP = '.basin-requirements';

export const requirementsHash = (): string =>
  crypto.createHash('sha256').update(TX_REQUIREMENTS.join('\n')).digest('hex').slice(0, 16);

/** Basin's install root (the monorepo / package root): src/ and dist/ are both two levels under plugins/transform. */
export function installRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

export interface VenvLocation {
  dir: string;
  kind: 'project' | 'env' | 'shared';
}

/** Project-local `.venv-tx/` when present, else `$BASIN_VENV_DIR`, else `<install root>/.cache/venv-tx`. */
export function locateVenv(projectDir?: string, env: NodeJS.ProcessEnv = process.env): VenvLocation {
  if (projectDir) {
    const local = path.join(projectDir, '.venv-tx');
    if (fs.existsSync(local)) return { dir: local, kind: 'project' };
  }
  if (env.BASIN_VENV_DIR) return { dir: path.resolve(env.BASIN_VENV_DIR), kind: 'env' };
  return { dir: path.join(installRoot(), '.cache', 'venv-tx'), kind: 'shared' };
}

const binDir = (venv: string) => path.join(venv, process.platform === 'win32' ? 'Scripts' : 'bin');
export const dbtExecutable = (venv: string) => path.join(binDir(venv), 'dbt');
export const pythonExecutable = (venv: string) => path.join(binDir(venv), 'python');

/** True when the venv exists with the current pins installed (cheap: one stat and one small read). */
export function venvReady(venv: string): boolean {
  try {
    return fs.readFileSync(path.join(venv, STAMP), 'utf8').trim() === requirementsHash() && fs.existsSync(dbtExecutable(venv));
  } catch {
    return false;
  }
}

/** dbt's version as reported by the venv's dbt-core package, or null when not installed. */
export function dbtVersion(venv: string): string | null {
  if (!fs.existsSync(pythonExecutable(venv))) return null;
  const r = spawnSync(pythonExecutable(venv), ['-c', 'import importlib.metadata as m; print(m.version("dbt-core"), m.version("dbt-duckdb"), m.version("duckdb"))'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) return null;
  const [core, duckdbAdapter, duckdb] = r.stdout.trim().split(/\s+/);
  return `dbt-core ${core}, dbt-duckdb ${duckdbAdapter}, duckdb ${duckdb}`;
}

export class VenvSetupError extends Error {}

type Log = (line: string) => void;

function run(cmd: string, args: string[], log: Log): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
    let output = '';
    const onData = (b: Buffer) => {
      const s = b.toString();
      output += s;
      for (const line of s.split('\n')) if (line.trim()) log(line);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => resolve({ code: -1, output: output + String(e) }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A cross-process lock (mkdir is atomic) so parallel test files never install into one venv at once. */
async function withLock<T>(venv: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${venv}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      let owner = 0;
      try {
        owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        /* being created */
      }
      if (owner && !alive(owner)) fs.rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Creates or updates the venv so the pinned packages are installed. Fast (no subprocess) when ready.
 * Throws VenvSetupError with a readable message when Python is missing or PyPI cannot be reached.
 */
export async function ensureVenv(venv: string, log: Log = () => {}): Promise<{ changed: boolean }> {
  if (venvReady(venv)) return { changed: false };
  return withLock(venv, async () => {
    if (venvReady(venv)) return { changed: false };
    const python = process.env.BASIN_PYTHON || 'python3';
    if (!fs.existsSync(pythonExecutable(venv))) {
      log(`creating Python virtualenv at ${venv}`);
      fs.rmSync(venv, { recursive: true, force: true });
      const r = await run(python, ['-m', 'venv', venv], log);
      if (r.code !== 0) throw new VenvSetupError(`could not create a Python virtualenv with ${python} (need Python >= 3.10 with venv): ${r.output.trim().slice(-400)}`);
    }
    log(`installing ${TX_REQUIREMENTS.join(' ')} (a few minutes the first time)`);
    const r = await run(pythonExecutable(venv), ['-m', 'pip', 'install', '--quiet', '--only-binary', 'dbt-core-experimental-parser', ...TX_REQUIREMENTS], log);
    if (r.code !== 0) {
      const offline = /(Could not find a version|ConnectionError|NewConnectionError|Temporary failure in name resolution|Max retries exceeded|No matching distribution)/i.test(r.output);
      throw new VenvSetupError(
        offline
          ? `could not reach the Python package index to install dbt (${TX_REQUIREMENTS.join(', ')}). Check network access to PyPI (or set PIP_INDEX_URL) and run \`basin tx setup\` again.`
          : `pip could not install dbt into ${venv}: ${r.output.trim().slice(-600)}`,
      );
    }
    fs.writeFileSync(path.join(venv, STAMP), requirementsHash() + '\n');
    log('dbt virtualenv ready');
    return { changed: true };
  });
}
