import type { BasinConfig } from '../config/service.js';
import type { Warehouse } from '../store/warehouse.js';
import type { WarehouseClient } from './interface.js';
import { DuckDBWarehouseClient } from './duckdb-client.js';
import { DEFAULT_WAREHOUSE_TYPE, resolveWarehouseSettings, warehouseBackend, type WarehouseBackendContext } from './registry.js';

/** what a backend of this project is created with (settings with defaults, paths, the environment) */
export function warehouseBackendContext(config: BasinConfig, section?: Record<string, unknown>): WarehouseBackendContext {
  return {
    projectDir: config.projectDir,
    settings: resolveWarehouseSettings(section ?? config.section<Record<string, unknown> | undefined>('warehouse')),
    dataDir: config.resolve(config.platform.data_dir),
    dbPath: config.resolve(config.platform.db_path),
    env: (name) => config.env(name),
  };
}

/**
 * The project's warehouse client (not opened). With the DuckDB backend it wraps `engine`, the one
 * owner of the file, so the client and the plugins that use the engine directly share one write queue.
 */
export async function createWarehouseClient(config: BasinConfig, engine?: Warehouse, section?: Record<string, unknown>): Promise<WarehouseClient> {
  const ctx = warehouseBackendContext(config, section);
  const type = String(ctx.settings.type);
  if (type === DEFAULT_WAREHOUSE_TYPE && engine) return new DuckDBWarehouseClient(engine);
  return (await warehouseBackend(type)).create(ctx);
}
