import { definePlugin } from '@basin/core';
import { registerWarehouseCommands } from './cli.js';

export { migrateWarehouse, MigrationError, isRawSchema, type MigrationReport } from './migrate.js';
export { warehouseStatus } from './status.js';

/** `basin warehouse status|migrate`; the backend's health is part of /api/health/platform (platform plugin) */
export default definePlugin({
  name: 'warehouse',
  commands: registerWarehouseCommands,
});
