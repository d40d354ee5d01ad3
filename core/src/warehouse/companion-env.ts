// What a companion process (Superset, marimo) is told about the warehouse (issue 22): the DuckDB
// serving copy's path, or a server warehouse's read-only connection for SQLAlchemy. The password
// travels only in the process environment (never in argv, a file or a log).
import type { BasinConfig } from '../config/service.js';
import type { ReadOnlyConnection } from './interface.js';
import { warehouseBackendContext } from './open.js';
import { DEFAULT_WAREHOUSE_TYPE, warehouseBackend } from './registry.js';

/**
 * BASIN_SERVING_DB for DuckDB; for a server warehouse BASIN_WAREHOUSE_SQLALCHEMY_URL (no password),
 * BASIN_WAREHOUSE_CONNECT_ARGS (JSON), BASIN_WAREHOUSE_SCHEMA_PREFIX (what Basin's schema names get
 * on the engine) and BASIN_WAREHOUSE_READ_PASSWORD (when set).
 */
export function companionWarehouseEnv(conn: ReadOnlyConnection | null, servingPath: string): Record<string, string> {
  if (!conn) return { BASIN_SERVING_DB: servingPath };
  const env: Record<string, string> = {
    BASIN_WAREHOUSE_SQLALCHEMY_URL: conn.sqlalchemyUrl,
    BASIN_WAREHOUSE_CONNECT_ARGS: JSON.stringify(conn.connectArgs),
    BASIN_WAREHOUSE_SCHEMA_PREFIX: conn.schemaName(''),
  };
  if (conn.password !== undefined) env.BASIN_WAREHOUSE_READ_PASSWORD = conn.password;
  return env;
}

/**
 * A companion process's whole environment: `base` (Basin's own) with the warehouse's variables. When
 * the warehouse names its own CA file (Trino's `ca_file`), REQUESTS_CA_BUNDLE and CURL_CA_BUNDLE are
 * left out: Python requests lets them override the CA a connection asks for, so the Trino client
 * would not trust the coordinator's certificate.
 */
export function companionProcessEnv(base: NodeJS.ProcessEnv, conn: ReadOnlyConnection | null, servingPath: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...companionWarehouseEnv(conn, servingPath) };
  if (conn && typeof conn.connectArgs.verify === 'string') {
    delete env.REQUESTS_CA_BUNDLE;
    delete env.CURL_CA_BUNDLE;
  }
  return env;
}

/**
 * The project's read-only connection for companions without booting it (`basin bi|notebooks setup`,
 * `basin doctor`): null for DuckDB (and any backend with a serving copy). Nothing connects.
 */
export async function companionConnection(config: BasinConfig): Promise<ReadOnlyConnection | null> {
  const ctx = warehouseBackendContext(config);
  const type = String(ctx.settings.type);
  if (type === DEFAULT_WAREHOUSE_TYPE) return null;
  const client = await (await warehouseBackend(type)).create(ctx);
  return client.capabilities.servingCopy ? null : client.readOnlyConnection();
}
