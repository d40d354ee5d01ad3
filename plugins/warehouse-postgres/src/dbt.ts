// dbt-postgres in its own pinned venv (dbt-core pinned like the DuckDB venv: see core's dbt-pins.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DBT_CORE_REQUIREMENTS, ManagedVenv } from '@basin/core';

export const POSTGRES_DBT_REQUIREMENTS = [...DBT_CORE_REQUIREMENTS, 'dbt-postgres==1.11.0'] as const;

/** Basin's install root: src/ and dist/ are both two levels under plugins/warehouse-postgres */
const installRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const postgresDbtVenv = new ManagedVenv(
  {
    tool: 'dbt-postgres',
    requirements: POSTGRES_DBT_REQUIREMENTS,
    executable: 'dbt',
    projectFolder: '.venv-tx-postgres',
    envVar: 'BASIN_PG_VENV_DIR',
    cacheFolder: 'venv-tx-postgres',
    pipArgs: ['--only-binary', 'dbt-core-experimental-parser'],
    setupCommand: 'node scripts/setup.mjs dbt-postgres-venv',
  },
  installRoot,
);
