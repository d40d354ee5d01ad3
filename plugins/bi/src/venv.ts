// Superset's own pinned virtualenv (core's ManagedVenv), separate from dbt's and marimo's.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagedVenv } from '@basin/core';

/**
 * Superset 6.1.0 from PyPI with duckdb-engine; Python duckdb MUST equal the Node engine's version
 * (1.5.6). flask-caching, flask-limiter and cachetools are pinned because Superset 6.1.0's own ranges
 * let pip pick versions it does not start with (notes/companions.md).
 */
export const BI_REQUIREMENTS = ['apache-superset==6.1.0', 'duckdb-engine==0.17.0', 'duckdb==1.5.6', 'flask-caching==2.3.1', 'flask-limiter==3.12', 'cachetools==8.0.2'] as const;

/** src/ and dist/ are both two levels under plugins/bi */
const installRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const supersetVenv = new ManagedVenv(
  {
    tool: 'superset',
    requirements: BI_REQUIREMENTS,
    executable: 'superset',
    projectFolder: '.venv-bi',
    envVar: 'BASIN_BI_VENV_DIR',
    cacheFolder: 'venv-bi',
    setupCommand: 'basin bi setup',
  },
  installRoot,
);

/**
 * Superset's venv for the project's warehouse: DuckDB (no drivers) keeps the pins above; a server
 * warehouse adds its SQLAlchemy driver (psycopg2-binary, trino[sqlalchemy]) to the same venv, a few MB
 * on top of Superset's ~870 MB (docs/decisions.md, issue 22). The venv stays ready for DuckDB after it.
 */
export function supersetVenvFor(drivers: readonly string[] | undefined): ManagedVenv {
  const extra = (drivers ?? []).filter((d) => !BI_REQUIREMENTS.includes(d as never));
  if (!extra.length) return supersetVenv;
  return new ManagedVenv({ ...supersetVenv.spec, requirements: [...BI_REQUIREMENTS, ...extra] }, installRoot);
}
