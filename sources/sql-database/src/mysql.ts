import type { Connection as CoreConnection, ConnectionOptions, RowDataPacket } from 'mysql2';
import type { Connection } from 'mysql2/promise';
import { SourceError, type SourceContext } from '@basin/sdk';
import type { DbTable } from './catalog.js';
import type { SqlDatabaseConfig } from './config.js';
import { resourceName } from './ident.js';
import { rowBatches, type DbSession } from './session.js';

interface Target {
  options: ConnectionOptions;
  where: string;
  user: string;
  database: string;
  secretVar: string | null;
}

/** mysql2 settings from the config; values come back as exact text (dates, decimals, 64-bit ints). */
function resolveTarget(ctx: SourceContext<SqlDatabaseConfig>): Target {
  const cfg = ctx.config;
  // strings keep DATETIME microseconds, BIGINT and DECIMAL digits exact; DuckDB casts them on load
  const common: ConnectionOptions = { dateStrings: true, supportBigNumbers: true, bigNumberStrings: true, timezone: 'Z', connectTimeout: 30_000, ...(cfg.ssl && cfg.ssl !== 'disable' ? { ssl: { rejectUnauthorized: cfg.ssl === 'verify-full' } } : {}) };
  if (cfg.connection_url_env) {
    if (cfg.host || cfg.database || cfg.username || cfg.password_env) {
      throw new SourceError('config_invalid', 'sql_database: give either connection_url_env or host/database/username/password_env, not both.');
    }
    const name = cfg.connection_url_env;
    let u: URL;
    try {
      u = new URL(ctx.secret(name));
    } catch {
      throw new SourceError('config_invalid', `The environment variable ${name} does not hold a valid mysql:// URL.`, { variable: name });
    }
    if (!/^(mysql|mariadb):$/.test(u.protocol)) throw new SourceError('config_invalid', `The environment variable ${name} must hold a mysql:// or mariadb:// URL (dialect is mysql).`, { variable: name });
    const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (!database) throw new SourceError('config_invalid', `The URL in ${name} names no database (mysql://user:password@host:3306/<database>).`, { variable: name });
    const user = decodeURIComponent(u.username) || 'root';
    const port = Number(u.port || 3306);
    return {
      options: { ...common, host: u.hostname || 'localhost', port, user, password: decodeURIComponent(u.password), database },
      where: `${u.hostname || 'localhost'}:${port}/${database}`,
      user,
      database,
      secretVar: name,
    };
  }
  const missing = (['host', 'database', 'username'] as const).filter((k) => !cfg[k]);
  if (missing.length) throw new SourceError('config_invalid', `sql_database (mysql) needs connection_url_env, or host, database and username (missing: ${missing.join(', ')}).`, { missing });
  const port = cfg.port ?? 3306;
  return {
    options: { ...common, host: cfg.host, port, user: cfg.username, password: cfg.password_env ? ctx.secret(cfg.password_env) : undefined, database: cfg.database },
    where: `${cfg.host}:${port}/${cfg.database}`,
    user: cfg.username!,
    database: cfg.database!,
    secretVar: cfg.password_env ?? null,
  };
}

function describeConnectError(e: unknown, t: Target): SourceError {
  const err = e as { code?: string; errno?: number; message?: string };
  const fix = t.secretVar ? ` Check the environment variable ${t.secretVar}.` : ' Set password_env to the name of an environment variable holding the password.';
  switch (err.code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return new SourceError('auth_failed', `MySQL/MariaDB at ${t.where} rejected user "${t.user}": ${err.message}.${fix}`, { variable: t.secretVar, mysql_code: err.code });
    case 'ER_BAD_DB_ERROR':
      return new SourceError('not_found', `MySQL/MariaDB at ${t.where}: ${err.message}. Check database in the config or the URL.`, { mysql_code: err.code });
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return new SourceError('connection_failed', `Could not reach MySQL/MariaDB at ${t.where} (${err.code}). Check the host and port${t.secretVar ? ` (from ${t.secretVar} or the config)` : ''}.`, { code: err.code });
    default:
      return new SourceError('connection_failed', `Could not connect to MySQL/MariaDB at ${t.where}: ${err.message ?? String(e)}`, { mysql_code: err.code });
  }
}

// MySQL DATA_TYPE -> the PostgreSQL base type name the shared type map knows
const TYPES: Record<string, string> = {
  tinyint: 'int2',
  smallint: 'int2',
  year: 'int2',
  mediumint: 'int4',
  int: 'int4',
  bigint: 'int8',
  float: 'float4',
  double: 'float8',
  real: 'float8',
  date: 'date',
  datetime: 'timestamp',
  // TIMESTAMP is stored in UTC and the session runs in UTC
  timestamp: 'timestamptz',
  time: 'interval',
  char: 'bpchar',
  varchar: 'varchar',
  tinytext: 'text',
  text: 'text',
  mediumtext: 'text',
  longtext: 'text',
  enum: 'text',
  set: 'text',
  json: 'json',
};

function pgType(r: RowDataPacket): { typname: string; formatted: string } {
  const t = String(r.type).toLowerCase();
  if (t === 'decimal') return { typname: 'numeric', formatted: `numeric(${r.prec},${r.scale})` };
  // unsigned BIGINT does not fit int8
  if (t === 'bigint' && /unsigned/i.test(String(r.ctype))) return { typname: 'numeric', formatted: 'numeric(20,0)' };
  if (t === 'int' && /unsigned/i.test(String(r.ctype))) return { typname: 'int8', formatted: 'bigint' };
  // MariaDB's JSON is LONGTEXT with a json_valid check; MySQL's is json
  const typname = TYPES[t] ?? 'text';
  return { typname, formatted: typname };
}

const COLUMNS_SQL = `
SELECT c.TABLE_NAME AS tbl, t.TABLE_TYPE AS ttype, c.COLUMN_NAME AS name, c.DATA_TYPE AS type, c.COLUMN_TYPE AS ctype,
       c.NUMERIC_PRECISION AS prec, c.NUMERIC_SCALE AS scale, c.IS_NULLABLE AS nullable, c.COLUMN_KEY AS ckey
FROM information_schema.COLUMNS c
JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
WHERE c.TABLE_SCHEMA = ?
ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`;

const PK_SQL = `
SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY TABLE_NAME, ORDINAL_POSITION`;

const quote = (name: string): string => {
  if (name.includes('\0')) throw new Error('an identifier cannot contain a NUL byte');
  return `\`${name.replace(/`/g, '``')}\``;
};

/**
 * MySQL/MariaDB: one `START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY` (InnoDB, REPEATABLE
 * READ), rows streamed from the server without buffering the result (mysql2's row stream).
 */
export async function openMysql(ctx: SourceContext<SqlDatabaseConfig>): Promise<DbSession> {
  const t = resolveTarget(ctx);
  const mysql = (await import('mysql2')).default;
  const core: CoreConnection = mysql.createConnection(t.options);
  // an idle-socket error must not crash the process; the pending query reports it
  core.on('error', () => undefined);
  const conn: Connection = core.promise();
  try {
    await conn.query("SET time_zone = '+00:00'");
  } catch (e) {
    core.destroy();
    throw describeConnectError(e, t);
  }
  let closed = false;
  return {
    label: 'MySQL/MariaDB',
    namespace: t.database,
    place: `database "${t.database}"`,
    async version() {
      const [rows] = await conn.query<RowDataPacket[]>('SELECT VERSION() AS v');
      return String(rows[0]?.v);
    },
    async catalog() {
      const tables = new Map<string, DbTable>();
      const [cols] = await conn.query<RowDataPacket[]>(COLUMNS_SQL, [t.database]);
      for (const r of cols) {
        let tb = tables.get(r.tbl);
        if (!tb) {
          tb = { name: r.tbl, resource: resourceName(r.tbl), kind: r.ttype === 'VIEW' ? 'view' : 'table', columns: [], primaryKey: [] };
          tables.set(r.tbl, tb);
        }
        tb.columns.push({ name: r.name, ...pgType(r), elem: null, notNull: r.nullable === 'NO' });
      }
      const [pks] = await conn.query<RowDataPacket[]>(PK_SQL, [t.database]);
      for (const r of pks) tables.get(r.tbl)?.primaryKey.push(r.name);
      return tables;
    },
    async beginSnapshot() {
      await conn.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    },
    async commit() {
      await conn.query('COMMIT');
    },
    quote,
    param: () => '?',
    afterLookback: (col, _typname, v, d) => `${col} > (${v} - INTERVAL ${d} DAY)`,
    async scalar(sql, params) {
      const [rows] = await conn.query<RowDataPacket[]>(sql, params);
      return rows[0] ? Object.values(rows[0])[0] : null;
    },
    async *batches(sql, params, size, signal) {
      // the core (callback) connection streams rows with back-pressure: paused while a batch loads
      const stream = core.query(sql, params).stream({ highWaterMark: size });
      yield* rowBatches(stream as AsyncIterable<Record<string, unknown>>, size, signal);
    },
    async close() {
      if (closed) return;
      closed = true;
      await conn.end().catch(() => core.destroy());
    },
  };
}
