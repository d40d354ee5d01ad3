import { Type, type Static } from '@basin/sdk';

const ENV_NAME = { pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable (not the secret itself)' };
/** slot and publication names Basin creates: PostgreSQL's slot name rule (lowercase, digits, underscore) */
const PG_NAME = { pattern: '^[a-z0-9_]{1,63}$' };

/**
 * `generic_config` of a pg_replication source (SPEC keeps it on generic_config). Connection as
 * sql_database: `connection_url_env`, or host/port/database/username with the password in
 * `password_env`. The role needs the REPLICATION attribute and SELECT on the tables; the server
 * `wal_level = logical`.
 */
export const PgReplicationConfig = Type.Object(
  {
    connection_url_env: Type.Optional(Type.String(ENV_NAME)),
    host: Type.Optional(Type.String({ minLength: 1 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'default 5432' })),
    database: Type.Optional(Type.String({ minLength: 1 })),
    username: Type.Optional(Type.String({ minLength: 1 })),
    password_env: Type.Optional(Type.String(ENV_NAME)),
    ssl: Type.Optional(Type.Union([Type.Literal('disable'), Type.Literal('require'), Type.Literal('verify-full')], { description: "default: the URL's sslmode, else disable" })),
    schema: Type.String({ minLength: 1, default: 'public' }),
    tables: Type.Array(Type.String({ minLength: 1 }), { default: [], uniqueItems: true, description: 'tables of the schema to replicate; empty = every table with a primary key' }),
    slot_name: Type.Optional(Type.String({ ...PG_NAME, description: 'default basin_<source name>' })),
    publication: Type.Optional(Type.String({ ...PG_NAME, description: 'default: the slot name; an existing publication is used as it is and never dropped' })),
    deletes: Type.Union([Type.Literal('flag'), Type.Literal('remove')], { default: 'flag', description: 'flag: a deleted row stays with _basin_deleted = true; remove: it leaves the table' }),
    chunk_size: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 50_000, description: 'rows per batch' }),
    drop_replication: Type.Boolean({ default: false, description: 'the next sync drops the slot and the publication Basin created and loads nothing (before removing the source)' }),
  },
  { additionalProperties: false, default: {} },
);
export type PgReplicationConfig = Static<typeof PgReplicationConfig>;

/** the slot of a source: the configured name, else basin_<source name> */
export function slotName(cfg: PgReplicationConfig, source: string): string {
  if (cfg.slot_name) return cfg.slot_name;
  return `basin_${source.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`.slice(0, 63);
}

export function publicationName(cfg: PgReplicationConfig, source: string): string {
  return cfg.publication ?? slotName(cfg, source);
}
