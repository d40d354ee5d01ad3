import { defineWarehouseBackend } from '@basin/core';
import { PostgresWarehouseClient, type PostgresSettings } from './client.js';

export { PostgresWarehouseClient, postgresCapabilities, type PostgresSettings } from './client.js';
export { postgresDbtVenv, POSTGRES_DBT_REQUIREMENTS } from './dbt.js';
export { postgresType } from './types.js';

/** `warehouse: {type: postgres, host, port, database, user, password_env, read_user, read_password_env, schema_prefix}` */
export default defineWarehouseBackend({
  type: 'postgres',
  create: (ctx) => new PostgresWarehouseClient(postgresSettings(ctx.settings), ctx.env),
  async provision(client) {
    if (client instanceof PostgresWarehouseClient) await client.provision();
  },
});

/** the section's values (validated against the manifest's schema, defaults applied) as typed settings */
function postgresSettings(s: Record<string, unknown>): PostgresSettings {
  const str = (k: string) => String(s[k] ?? '');
  return {
    host: str('host'),
    port: Number(s.port),
    database: str('database'),
    user: str('user'),
    password_env: str('password_env'),
    read_user: str('read_user'),
    read_password_env: str('read_password_env'),
    schema_prefix: str('schema_prefix'),
    ssl: s.ssl === true,
  };
}
