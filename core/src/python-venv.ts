// A Python virtualenv that Basin manages for a companion tool (dbt, marimo, ...): one shared venv per
// Basin install, keyed by a hash of the pinned requirements so a pin change rebuilds it; a project-local
// folder wins when present. Node built-ins only.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface ManagedVenvSpec {
  /** a short name for messages: "dbt", "marimo" */
  tool: string;
  /** exact pins; Python duckdb must equal the Node engine's version */
  requirements: readonly string[];
  /** the executable the venv must provide (bin/<name>) */
  executable: string;
  /** a project-local venv folder that wins when present, e.g. ".venv-tx" */
  projectFolder: string;
  /** environment variable naming the venv folder */
  envVar: string;
  /** the shared folder's name under <install root>/.cache/ */
  cacheFolder: string;
  /** extra `pip install` arguments, e.g. ['--only-binary', 'pkg'] */
  pipArgs?: readonly string[];
  /** the command that (re)creates it, named in error messages: "basin tx setup" */
  setupCommand: string;
}

export interface VenvLocation {
  dir: string;
  kind: 'project' | 'env' | 'shared';
}

export class VenvSetupError extends Error {}

type Log = (line: string) => void;
const STAMP = '.basin-requirements';

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
 * The stamp a finished install leaves: the requirements hash on the first line (all an older Basin
 * wrote), then every pin the venv has, one a line.
 */
function readStamp(venv: string): { hash: string; pins: string[] } | null {
  try {
    const [hash = '', ...pins] = fs.readFileSync(path.join(venv, STAMP), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
    return { hash, pins };
  } catch {
    return null;
  }
}

/** the distribution name of a pin, normalised: "trino[sqlalchemy]==0.336.0" -> "trino" */
const pinName = (pin: string): string => pin.split(/[\[=<>!~; ]/)[0]!.toLowerCase().replace(/[-_.]+/g, '-');

const binDir = (venv: string) => path.join(venv, process.platform === 'win32' ? 'Scripts' : 'bin');
export const venvPython = (venv: string) => path.join(binDir(venv), 'python');

export class ManagedVenv {
  constructor(readonly spec: ManagedVenvSpec, private readonly installRoot: string) {}

  requirementsHash(): string {
    return crypto.createHash('sha256').update(this.spec.requirements.join('\n')).digest('hex').slice(0, 16);
  }

  /** The project-local folder when present, else `$<envVar>`, else `<install root>/.cache/<cacheFolder>`. */
  locate(projectDir?: string, env: NodeJS.ProcessEnv = process.env): VenvLocation {
    if (projectDir) {
      const local = path.join(projectDir, this.spec.projectFolder);
      if (fs.existsSync(local)) return { dir: local, kind: 'project' };
    }
    const fromEnv = env[this.spec.envVar];
    if (fromEnv) return { dir: path.resolve(fromEnv), kind: 'env' };
    return { dir: path.join(this.installRoot, '.cache', this.spec.cacheFolder), kind: 'shared' };
  }

  executable(venv: string): string {
    return path.join(binDir(venv), this.spec.executable);
  }

  python(venv: string): string {
    return venvPython(venv);
  }

  /**
   * What `basin doctor` says about this venv: missing (a warning: the feature installs it on first
   * use), broken (its Python does not start: a failure, with the command that rebuilds it), out of
   * date with the pins, or ok.
   */
  doctorCheck(projectDir: string): import('./cli-kit/doctor.js').DoctorCheck {
    const { dir, kind } = this.locate(projectDir);
    const name = `${this.spec.tool} virtualenv`;
    const base = { area: 'virtualenvs', name };
    if (!fs.existsSync(dir)) return { ...base, status: 'warn', detail: `not installed (${dir})`, fix: `Run "${this.spec.setupCommand}" (it is also installed on first use).` };
    const py = spawnSync(venvPython(dir), ['-c', 'import sys; print(sys.version.split()[0])'], { encoding: 'utf8', timeout: 30_000 });
    if (py.error || py.status !== 0) {
      return { ...base, status: 'fail', detail: `broken: its Python does not start (${dir}, ${kind})`, fix: `Remove it and reinstall: rm -rf '${dir}' && ${this.spec.setupCommand}` };
    }
    if (!this.ready(dir)) return { ...base, status: 'warn', detail: `Python ${py.stdout.trim()}, but not the pinned ${this.spec.requirements.join(', ')} (${dir})`, fix: `Run "${this.spec.setupCommand}" to install the pinned versions.` };
    return { ...base, status: 'ok', detail: `Python ${py.stdout.trim()}, ${this.spec.requirements.join(', ')} (${kind}: ${dir})` };
  }

  /**
   * True when the venv exists with the current pins installed (cheap: one stat and one small read).
   * A venv that got more pins on top (a server warehouse's drivers, same folder) is ready for fewer.
   */
  ready(venv: string): boolean {
    const stamp = readStamp(venv);
    if (!stamp || !fs.existsSync(this.executable(venv)) || this.moved(venv)) return false;
    return stamp.hash === this.requirementsHash() || this.spec.requirements.every((r) => stamp.pins.includes(r));
  }

  /**
   * pip writes the venv's own Python into each entry script by absolute path: a venv moved or copied
   * with its project (or made through a path that is gone, such as a removed symlinked worktree)
   * has scripts that cannot start ("spawn ... ENOENT"), and only a new venv mends that.
   */
  private moved(venv: string): boolean {
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.executable(venv), 'r');
      const head = Buffer.alloc(512);
      const n = fs.readSync(fd, head, 0, head.length, 0);
      const interpreter = /^#!(\S+)/.exec(head.subarray(0, n).toString('latin1'))?.[1];
      return !!interpreter && path.isAbsolute(interpreter) && !fs.existsSync(interpreter);
    } catch {
      return false;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /**
   * Creates or updates the venv so the pinned packages are installed. Fast (no subprocess) when ready.
   * Throws VenvSetupError with a readable message when Python is missing or PyPI cannot be reached.
   */
  async ensure(venv: string, log: Log = () => {}): Promise<{ changed: boolean }> {
    if (this.ready(venv)) return { changed: false };
    const { tool, requirements } = this.spec;
    return withLock(venv, async () => {
      if (this.ready(venv)) return { changed: false };
      const python = process.env.BASIN_PYTHON || 'python3';
      if (!fs.existsSync(venvPython(venv)) || this.moved(venv)) {
        log(`creating Python virtualenv at ${venv}`);
        fs.rmSync(venv, { recursive: true, force: true });
        const r = await run(python, ['-m', 'venv', venv], log);
        if (r.code !== 0) throw new VenvSetupError(`could not create a Python virtualenv with ${python} (need Python >= 3.10 with venv): ${r.output.trim().slice(-400)}`);
      }
      log(`installing ${requirements.join(' ')} (a few minutes the first time)`);
      const r = await run(venvPython(venv), ['-m', 'pip', 'install', '--quiet', ...(this.spec.pipArgs ?? []), ...requirements], log);
      if (r.code !== 0) {
        const offline = /(Could not find a version|ConnectionError|NewConnectionError|Temporary failure in name resolution|Max retries exceeded|No matching distribution)/i.test(r.output);
        throw new VenvSetupError(
          offline
            ? `could not reach the Python package index to install ${tool} (${requirements.join(', ')}). Check network access to PyPI (or set PIP_INDEX_URL) and run \`${this.spec.setupCommand}\` again.`
            : `pip could not install ${tool} into ${venv}: ${r.output.trim().slice(-600)}`,
        );
      }
      // the pins installed now, plus earlier ones of other packages (drivers added by another spec stay listed)
      const names = new Set(requirements.map(pinName));
      const kept = (readStamp(venv)?.pins ?? []).filter((p) => !names.has(pinName(p)));
      fs.writeFileSync(path.join(venv, STAMP), [this.requirementsHash(), ...requirements, ...kept].join('\n') + '\n');
      log(`${tool} virtualenv ready`);
      return { changed: true };
    });
  }
}
