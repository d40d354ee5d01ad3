import { Type, type Static } from '@basin/sdk';

const ENV_NAME = { pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable (not the secret itself)' };

/** A table's incremental cursor: the column name, or the column with an inclusive starting value. */
export const CursorSetting = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object(
    {
      cursor_column: Type.String({ minLength: 1 }),
      initial_value: Type.Optional(Type.Union([Type.String(), Type.Number()], { description: 'first load reads rows with cursor >= this value' })),
    },
    { additionalProperties: false },
  ),
]);

/**
 * The `sql_database:` block. `dialect` says the database: postgres (default), mysql (MySQL or
 * MariaDB) or sqlite. Connection: `connection_url_env` (a variable holding a postgres:// or mysql://
 * URL) or host/port/database/username with the password in `password_env`; SQLite takes `path`.
 */
export const SqlDatabaseConfig = Type.Object(
  {
    dialect: Type.Union([Type.Literal('postgres'), Type.Literal('mysql'), Type.Literal('sqlite')], { default: 'postgres', description: 'postgres, mysql (MySQL or MariaDB) or sqlite' }),
    path: Type.Optional(Type.String({ minLength: 1, description: 'sqlite: the database file, relative to the project directory' })),
    connection_url_env: Type.Optional(Type.String(ENV_NAME)),
    host: Type.Optional(Type.String({ minLength: 1 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'default 5432 (postgres), 3306 (mysql)' })),
    database: Type.Optional(Type.String({ minLength: 1 })),
    username: Type.Optional(Type.String({ minLength: 1 })),
    password_env: Type.Optional(Type.String(ENV_NAME)),
    ssl: Type.Optional(Type.Union([Type.Literal('disable'), Type.Literal('require'), Type.Literal('verify-full')], { description: 'default: the URL\'s sslmode, else disable' })),
    schema: Type.String({ minLength: 1, default: 'public', description: 'postgres only; mysql reads the tables of `database`, sqlite those of the file' }),
    tables: Type.Array(Type.String({ minLength: 1 }), { default: [], uniqueItems: true, description: 'table names in the schema; empty = every table' }),
    incremental: Type.Record(Type.String({ minLength: 1 }), CursorSetting, { default: {}, description: 'table name -> cursor column; other tables are replaced on every sync' }),
    chunk_size: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 50_000, description: 'rows per batch read from the server-side cursor or stream' }),
  },
  { additionalProperties: false, default: {} },
);
export type SqlDatabaseConfig = Static<typeof SqlDatabaseConfig>;

export interface CursorSpec {
  column: string;
  initialValue?: string | number;
}

export function cursorOf(cfg: SqlDatabaseConfig, table: string): CursorSpec | undefined {
  const s = cfg.incremental[table];
  if (s === undefined) return undefined;
  return typeof s === 'string' ? { column: s } : { column: s.cursor_column, initialValue: s.initial_value };
}
