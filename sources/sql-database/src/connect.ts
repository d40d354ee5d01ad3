import type pg from 'pg';
import { SourceError, type SourceContext } from '@basin/sdk';
import type { SqlDatabaseConfig } from './config.js';
import { loadPg, typeParsers } from './type-map.js';

export interface Target {
  client: pg.ClientConfig;
  /** host:port/database for messages (never a password) */
  where: string;
  user: string;
  /** the env variable holding the secret, named in auth errors */
  secretVar: string | null;
}

/** Builds the pg client settings from the config, resolving the secret through ctx.secret. */
export function resolveTarget(ctx: SourceContext<SqlDatabaseConfig>): Target {
  const cfg = ctx.config;
  const ssl = cfg.ssl === 'require' ? { rejectUnauthorized: false } : cfg.ssl === 'verify-full' ? true : cfg.ssl === 'disable' ? false : undefined;
  const common = { application_name: 'basin', connectionTimeoutMillis: 30_000, types: typeParsers, ...(ssl !== undefined ? { ssl } : {}) };
  if (cfg.connection_url_env) {
    if (cfg.host || cfg.database || cfg.username || cfg.password_env) {
      throw new SourceError('config_invalid', 'sql_database: give either connection_url_env or host/database/username/password_env, not both.');
    }
    const name = cfg.connection_url_env;
    const url = ctx.secret(name);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new SourceError('config_invalid', `The environment variable ${name} does not hold a valid postgres:// URL.`, { variable: name });
    }
    if (!/^postgres(ql)?:$/.test(parsed.protocol)) throw new SourceError('config_invalid', `The environment variable ${name} must hold a postgres:// or postgresql:// URL.`, { variable: name });
    const user = decodeURIComponent(parsed.username) || 'postgres';
    const where = `${parsed.hostname || 'localhost'}:${parsed.port || 5432}${parsed.pathname || '/'}`;
    return { client: { ...common, connectionString: url }, where, user, secretVar: name };
  }
  const missing = (['host', 'database', 'username'] as const).filter((k) => !cfg[k]);
  if (missing.length) {
    throw new SourceError('config_invalid', `sql_database needs connection_url_env, or host, database and username (missing: ${missing.join(', ')}).`, { missing });
  }
  const password = cfg.password_env ? ctx.secret(cfg.password_env) : undefined;
  const port = cfg.port ?? 5432;
  return {
    client: { ...common, host: cfg.host, port, database: cfg.database, user: cfg.username, password },
    where: `${cfg.host}:${port}/${cfg.database}`,
    user: cfg.username!,
    secretVar: cfg.password_env ?? null,
  };
}

/** Opens a session in UTC with output formats DuckDB parses; errors name what to fix, never a secret. */
export async function connect(ctx: SourceContext<SqlDatabaseConfig>): Promise<pg.Client> {
  const t = resolveTarget(ctx);
  const { Client } = await loadPg();
  const client = new Client(t.client);
  // an idle-socket error must not crash the process; the pending query reports it
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query("SET TIME ZONE 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres_verbose'");
  } catch (e) {
    await client.end().catch(() => undefined);
    throw describeConnectError(e, t);
  }
  return client;
}

export function describeConnectError(e: unknown, t: Pick<Target, 'where' | 'user' | 'secretVar'>): SourceError {
  const err = e as { code?: string; message?: string };
  const fix = t.secretVar ? ` Check the environment variable ${t.secretVar}.` : ' Set password_env to the name of an environment variable holding the password.';
  switch (err.code) {
    case '28P01':
    case '28000':
      return new SourceError('auth_failed', `PostgreSQL at ${t.where} rejected user "${t.user}": ${err.message}.${fix}`, { variable: t.secretVar, pg_code: err.code });
    case '3D000':
      return new SourceError('not_found', `PostgreSQL at ${t.where}: ${err.message}.`, { pg_code: err.code });
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return new SourceError('connection_failed', `Could not reach PostgreSQL at ${t.where} (${err.code}).${t.secretVar ? ` Check the host and port (from ${t.secretVar} or the config).` : ''}`, { code: err.code });
    default:
      return new SourceError('connection_failed', `Could not connect to PostgreSQL at ${t.where}: ${err.message ?? String(e)}`, { pg_code: err.code });
  }
}
