// Trino + Iceberg as a warehouse backend (`warehouse: {type: trino, ...}` in project.yml).
import { defineWarehouseBackend } from '@basin/core';
import { TrinoWarehouseClient } from './client.js';
import { upLocalTrino } from './local-warehouse.js';
import { trinoSettingsOf } from './settings.js';

export { TrinoWarehouseClient, trinoCapabilities, type TrinoSettings } from './client.js';
export { dbtTrinoVenv, DBT_TRINO_REQUIREMENTS, ensureTrinoInstall, TRINO_VERSION } from './install.js';
export { writeCoordinatorConfig, type CoordinatorConfig } from './coordinator-config.js';
export { startLocalCoordinator, type LocalCoordinator } from './local-coordinator.js';
export { trinoSettingsOf } from './settings.js';

/**
 * `warehouse: {type: trino, host, port, https, ca_file, catalog, staging_catalog, lake_dir,
 * schema_prefix, user, password_env, read_user, read_password_env}`; passwords come from the
 * environment variables named (never from project.yml).
 */
export default defineWarehouseBackend({
  type: 'trino',
  create: (ctx) => new TrinoWarehouseClient(trinoSettingsOf(ctx), ctx.env),
  up: upLocalTrino,
});
