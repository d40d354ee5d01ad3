// The warehouse backends the warehouse-level tests run against (test/warehouse-backends.test.ts).
// DuckDB always; PostgreSQL from Debian's server, started once per test file. A new backend (Trino)
// adds one entry: how to start it and the `warehouse` section + env a project would have.
import fs from 'node:fs';
import path from 'node:path';
import { resolveWarehouseSettings, warehouseBackend, type WarehouseBackendContext, type WarehouseClient } from '@basin/core';
import { locateVenv, venvReady } from '@basin/plugin-transform';
import { postgresDbtVenv } from '@basin/warehouse-postgres';
import { postgresBinDir, startPostgres } from './postgres.js';
import { trinoUnderTest } from './trino-warehouse.js';

export interface RunningWarehouse {
  /** the project.yml `warehouse` section */
  section: Record<string, unknown>;
  /** secrets the section names by `*_env` */
  env: Record<string, string>;
  /** the venv with dbt and this backend's adapter, or why there is none */
  dbtVenv: { dir: string } | { missing: string };
  stop(): Promise<void>;
}

export interface WarehouseUnderTest {
  type: string;
  /** null when it can run here, else why not (the tests of this backend are skipped saying so) */
  unavailable(): string | null;
  start(projectDir: string): Promise<RunningWarehouse>;
}

const venvOf = (dir: string, ready: (dir: string) => boolean, setup: string): RunningWarehouse['dbtVenv'] =>
  ready(dir) ? { dir } : { missing: `the dbt virtualenv at ${dir} is not installed (${setup})` };

export const duckdbUnderTest: WarehouseUnderTest = {
  type: 'duckdb',
  unavailable: () => null,
  start: async () => ({ section: { type: 'duckdb' }, env: {}, dbtVenv: venvOf(locateVenv(undefined).dir, venvReady, 'basin tx setup'), stop: async () => undefined }),
};

export const postgresUnderTest: WarehouseUnderTest = {
  type: 'postgres',
  unavailable: () => (postgresBinDir() ? null : 'PostgreSQL server binaries are not installed (node scripts/setup.mjs postgresql)'),
  async start() {
    const server = await startPostgres();
    // a writing role that may create the read-only one, owning its database: what an operator gives Basin
    server.psql(`CREATE ROLE basin LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE basin OWNER basin;`);
    return {
      // a schema prefix, as Trino's entry has one: every name Basin and dbt use must carry it
      section: { type: 'postgres', host: server.host, port: server.port, database: 'basin', user: 'basin', read_user: 'basin_reader', schema_prefix: 'wh_' },
      env: { BASIN_WAREHOUSE_PASSWORD: 'writer-secret', BASIN_WAREHOUSE_READ_PASSWORD: 'reader-secret' },
      dbtVenv: venvOf(postgresDbtVenv.locate(undefined).dir, (d) => postgresDbtVenv.ready(d), postgresDbtVenv.spec.setupCommand),
      stop: () => server.stop(),
    };
  },
};

/** every backend the warehouse-level tests cover */
export const warehousesUnderTest: WarehouseUnderTest[] = [duckdbUnderTest, postgresUnderTest, trinoUnderTest];

/** what a backend of a project in `projectDir` with this section is created with */
export function backendContext(projectDir: string, running: Pick<RunningWarehouse, 'section' | 'env'>): WarehouseBackendContext {
  const dataDir = path.join(projectDir, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    projectDir,
    settings: resolveWarehouseSettings(running.section),
    dataDir,
    dbPath: path.join(dataDir, 'warehouse.db'),
    env: (name) => running.env[name] ?? process.env[name],
  };
}

/** a client through the backend registry, as a project would get it (not opened) */
export async function clientFor(projectDir: string, running: Pick<RunningWarehouse, 'section' | 'env'>): Promise<WarehouseClient> {
  const ctx = backendContext(projectDir, running);
  const backend = await warehouseBackend(String(ctx.settings.type));
  const client = await backend.create(ctx);
  await client.open();
  await backend.provision?.(client, ctx);
  return client;
}
