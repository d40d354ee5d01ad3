// marimo's own pinned virtualenv (core's ManagedVenv), separate from dbt's so their pins never fight.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagedVenv } from '@basin/core';

/** Python duckdb MUST equal the Node engine's version (1.5.6): notebooks open the serving copy. */
export const NOTEBOOK_REQUIREMENTS = ['marimo==0.25.2', 'duckdb==1.5.6'] as const;

/** src/ and dist/ are both two levels under plugins/notebooks */
const installRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const marimoVenv = new ManagedVenv(
  {
    tool: 'marimo',
    requirements: NOTEBOOK_REQUIREMENTS,
    executable: 'marimo',
    projectFolder: '.venv-notebooks',
    envVar: 'BASIN_NOTEBOOKS_VENV_DIR',
    cacheFolder: 'venv-notebooks',
    setupCommand: 'basin notebooks setup',
  },
  installRoot,
);

/** SQLAlchemy for the notebooks' connection to a server warehouse (basin_warehouse.py; the driver comes from the warehouse) */
export const NOTEBOOK_SERVER_REQUIREMENTS = ['sqlalchemy==2.0.44'] as const;

/**
 * marimo's venv for the project's warehouse: DuckDB keeps the pins above; a server warehouse adds
 * SQLAlchemy and its driver (psycopg2-binary, trino[sqlalchemy]) to the same venv (~70 MB on top of
 * ~300 MB; docs/decisions.md, issue 22). The venv stays ready for DuckDB after it.
 */
export function marimoVenvFor(drivers: readonly string[] | undefined): ManagedVenv {
  if (!drivers?.length) return marimoVenv;
  return new ManagedVenv({ ...marimoVenv.spec, requirements: [...NOTEBOOK_REQUIREMENTS, ...NOTEBOOK_SERVER_REQUIREMENTS, ...drivers] }, installRoot);
}
