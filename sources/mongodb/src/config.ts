import { Type, type Static } from '@basin/sdk';

const ENV_NAME = { pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable (not the secret itself)' };

/**
 * `generic_config` of a mongodb source (SPEC keeps mongodb on generic_config). Connection:
 * `connection_url_env` (a variable holding a mongodb:// or mongodb+srv:// URL) or host/port/username
 * with the password in `password_env`.
 */
export const MongodbConfig = Type.Object(
  {
    connection_url_env: Type.Optional(Type.String(ENV_NAME)),
    host: Type.Optional(Type.String({ minLength: 1 })),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 27017 }),
    username: Type.Optional(Type.String({ minLength: 1 })),
    password_env: Type.Optional(Type.String(ENV_NAME)),
    auth_source: Type.String({ minLength: 1, default: 'admin', description: 'the database that holds the user' }),
    tls: Type.Boolean({ default: false }),
    database: Type.Optional(Type.String({ minLength: 1, description: "the database to read; default: the URL's path" })),
    collections: Type.Array(Type.String({ minLength: 1 }), { default: [], uniqueItems: true, description: 'collection names; empty = every collection of the database (views only when listed)' }),
    incremental: Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1 }), {
      default: {},
      description: 'collection -> cursor field (`_id` or a field such as updated_at, dotted paths allowed); other collections are replaced on every sync',
    }),
    batch_size: Type.Integer({ minimum: 1, maximum: 100_000, default: 10_000, description: 'documents per batch fetched from the server and loaded' }),
    connect_timeout_seconds: Type.Integer({ minimum: 1, maximum: 600, default: 15, description: 'how long to wait for the server before failing' }),
  },
  { additionalProperties: false, default: {} },
);
export type MongodbConfig = Static<typeof MongodbConfig>;
