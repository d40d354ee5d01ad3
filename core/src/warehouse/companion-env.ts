// What a companion process (Superset, marimo) is told about the warehouse (issue 22): the DuckDB
// serving copy's path, or a server warehouse's read-only connection for SQLAlchemy. The password
// travels only in the process environment (never in argv, a file or a log).
import type { ReadOnlyConnection } from './interface.js';

/**
 * BASIN_SERVING_DB for DuckDB; for a server warehouse BASIN_WAREHOUSE_SQLALCHEMY_URL (no password),
 * BASIN_WAREHOUSE_CONNECT_ARGS (JSON) and BASIN_WAREHOUSE_READ_PASSWORD (when set).
 */
export function companionWarehouseEnv(conn: ReadOnlyConnection | null, servingPath: string): Record<string, string> {
  if (!conn) return { BASIN_SERVING_DB: servingPath };
  const env: Record<string, string> = {
    BASIN_WAREHOUSE_SQLALCHEMY_URL: conn.sqlalchemyUrl,
    BASIN_WAREHOUSE_CONNECT_ARGS: JSON.stringify(conn.connectArgs),
  };
  if (conn.password !== undefined) env.BASIN_WAREHOUSE_READ_PASSWORD = conn.password;
  return env;
}
