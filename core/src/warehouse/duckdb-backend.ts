import { Warehouse } from '../store/warehouse.js';
import path from 'node:path';
import { defineWarehouseBackend } from './registry.js';
import { DuckDBWarehouseClient } from './duckdb-client.js';

/** the embedded default: `platform.db_path`, serving copy in `platform.data_dir` */
export const duckdbBackend = defineWarehouseBackend({
  type: 'duckdb',
  create: (ctx) => new DuckDBWarehouseClient(new Warehouse({ dbPath: ctx.dbPath, servingPath: path.join(ctx.dataDir, 'serving.db') })),
});
