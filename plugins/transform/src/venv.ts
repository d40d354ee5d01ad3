// The Python virtualenv that holds dbt (core's ManagedVenv: one shared venv per Basin install keyed by
// the pins; a project-local `.venv-tx/` wins when present).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DUCKDB_DBT_REQUIREMENTS, ManagedVenv, VenvSetupError, type VenvLocation } from '@basin/core';

export { VenvSetupError, type VenvLocation };

/**
 * Pinned toolchain (core's DuckDB warehouse backend owns the pins: its dbt target). Python duckdb MUST equal @duckdb/node-api's engine version (1.5.6): a newer
 * Python duckdb may write a storage format the server cannot read (test/compat.test.ts checks it).
 * dbt-core 1.12.1+ needs dbt-core-experimental-parser >= 2.0.0b1, whose PyPI releases are source
 * archives that download a wheel from GitHub while building (no network but the registries here);
 * 2.0.0a4 is the newest with a wheel on PyPI and dbt-core 1.12.0 is the newest 1.12 that accepts it.
 */
export const TX_REQUIREMENTS = DUCKDB_DBT_REQUIREMENTS;

/** Basin's install root (the monorepo / package root): src/ and dist/ are both two levels under plugins/transform. */
export function installRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

export const txVenv = new ManagedVenv(
  {
    tool: 'dbt',
    requirements: TX_REQUIREMENTS,
    executable: 'dbt',
    projectFolder: '.venv-tx',
    envVar: 'BASIN_VENV_DIR',
    cacheFolder: 'venv-tx',
    pipArgs: ['--only-binary', 'dbt-core-experimental-parser'],
    setupCommand: 'basin tx setup',
  },
  installRoot(),
);

export const requirementsHash = (): string => txVenv.requirementsHash();
/** Project-local `.venv-tx/` when present, else `$BASIN_VENV_DIR`, else `<install root>/.cache/venv-tx`. */
export const locateVenv = (projectDir?: string, env: NodeJS.ProcessEnv = process.env): VenvLocation => txVenv.locate(projectDir, env);
export const dbtExecutable = (venv: string) => txVenv.executable(venv);
export const pythonExecutable = (venv: string) => txVenv.python(venv);
/** True when the venv exists with the current pins installed (cheap: one stat and one small read). */
export const venvReady = (venv: string): boolean => txVenv.ready(venv);
export const ensureVenv = (venv: string, log?: (line: string) => void) => txVenv.ensure(venv, log);

/**
 * The installed versions from the venv's `<name>-<version>.dist-info` directories (what
 * importlib.metadata reads): a directory listing instead of a Python start, which blocked the server's
 * first GET /api/status for ~0.1-0.3 s. Null when the layout is not the usual one.
 */
function distInfoVersions(venv: string, names: string[]): string[] | null {
  try {
    const lib = path.join(venv, 'lib');
    const py = fs.readdirSync(lib).find((d) => /^python3\.\d+$/.test(d));
    if (!py) return null;
    const entries = fs.readdirSync(path.join(lib, py, 'site-packages'));
    const out: string[] = [];
    for (const name of names) {
      const found = entries.filter((e) => e.startsWith(`${name}-`) && e.endsWith('.dist-info')).map((e) => e.slice(name.length + 1, -'.dist-info'.length));
      if (found.length !== 1) return null;
      out.push(found[0]!);
    }
    return out;
  } catch {
    return null;
  }
}

/** dbt's version as reported by the venv's dbt-core package, or null when not installed. */
export function dbtVersion(venv: string): string | null {
  const listed = distInfoVersions(venv, ['dbt_core', 'dbt_duckdb', 'duckdb']);
  if (listed) return `dbt-core ${listed[0]}, dbt-duckdb ${listed[1]}, duckdb ${listed[2]}`;
  const r = spawnSync(pythonExecutable(venv), ['-c', 'import importlib.metadata as m; print(m.version("dbt-core"), m.version("dbt-duckdb"), m.version("duckdb"))'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.error || r.status !== 0) return null;
  const [core, duckdbAdapter, duckdb] = r.stdout.trim().split(/\s+/);
  return `dbt-core ${core}, dbt-duckdb ${duckdbAdapter}, duckdb ${duckdb}`;
}
