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
