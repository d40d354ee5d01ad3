// Trino + Iceberg as a warehouse backend (`warehouse: {type: trino, ...}` in project.yml).
import path from 'node:path';
import { defineWarehouseBackend } from '@basin/core';
import { TrinoWarehouseClient, type TrinoSettings } from './client.js';

export { TrinoWarehouseClient, trinoCapabilities, type TrinoSettings } from './client.js';
export { dbtTrinoVenv, DBT_TRINO_REQUIREMENTS, ensureTrinoInstall, TRINO_VERSION } from './install.js';
export { writeCoordinatorConfig, type CoordinatorConfig } from './coordinator-config.js';
export { startLocalCoordinator, type LocalCoordinator } from './local-coordinator.js';

/**
 * `warehouse: {type: trino, host, port, https, ca_file, catalog, staging_catalog, lake_dir,
 * schema_prefix, user, password_env, read_user, read_password_env}`; passwords come from the
 * environment variables named (never from project.yml).
 */
export default defineWarehouseBackend({
  type: 'trino',
  create: (ctx) => new TrinoWarehouseClient(trinoSettings(ctx.settings, ctx.projectDir), ctx.env),
});

/** the section's values (validated against the manifest's schema, defaults applied) as typed settings */
export function trinoSettings(s: Record<string, unknown>, projectDir: string): TrinoSettings {
  const str = (k: string) => String(s[k] ?? '');
  const scheme = s.https === false ? 'http' : 'https';
  return {
    url: `${scheme}://${str('host')}:${Number(s.port)}`,
    catalog: str('catalog'),
    staging_catalog: str('staging_catalog'),
    lake_dir: path.resolve(projectDir, str('lake_dir')),
    schema_prefix: str('schema_prefix'),
    user: str('user'),
    password_env: str('password_env'),
    read_user: str('read_user'),
    read_password_env: str('read_password_env'),
    ca_file: str('ca_file') ? path.resolve(projectDir, str('ca_file')) : '',
  };
}
