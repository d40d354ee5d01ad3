import type pg from 'pg';
import { SourceError, type SourceContext } from '@basin/sdk';
import type { PgReplicationConfig } from './config.js';
import { loadPg, typeParsers } from './type-map.js';

export interface Target {
  client: pg.ClientConfig;
  /** host:port/database for messages (never a password) */
  where: string;
  user: string;
  /** the env variable holding the secret, named in auth errors */
  secretVar: string | null;
}

// output formats DuckDB parses, for the snapshot session and for the values pgoutput writes (the
// walsender formats them with its own session settings)
const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO,YMD -c IntervalStyle=postgres_verbose -c extra_float_digits=3';

/** Builds the pg client settings from the config, resolving the secret through ctx.secret. */
export function resolveTarget(ctx: SourceContext<PgReplicationConfig>): Target {
  const cfg = ctx.config;
  const ssl = cfg.ssl === 'require' ? { rejectUnauthorized: false } : cfg.ssl === 'verify-full' ? true : cfg.ssl === 'disable' ? false : undefined;
  const common = { application_name: 'basin', connectionTimeoutMillis: 30_000, types: typeParsers, options: SESSION_OPTIONS, ...(ssl !== undefined ? { ssl } : {}) };
  if (cfg.connection_url_env) {
    if (cfg.host || cfg.database || cfg.username || cfg.password_env) {
      throw new SourceError('config_invalid', 'pg_replication: give either connection_url_env or host/database/username/password_env, not both.');
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
    throw new SourceError('config_invalid', `pg_replication needs connection_url_env, or host, database and username (missing: ${missing.join(', ')}).`, { missing });
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

/**
 * Opens a session: a plain one (catalog, snapshot reads, publication) or a logical replication one
 * (`replication: 'database'`: slots and the change stream). Errors name what to fix, never a secret.
 */
export async function connect(ctx: SourceContext<PgReplicationConfig>, kind: 'sql' | 'replication' = 'sql'): Promise<pg.Client> {
  const t = resolveTarget(ctx);
  const { Client } = await loadPg();
  const client = new Client(kind === 'replication' ? { ...t.client, replication: 'database' } as pg.ClientConfig : t.client);
  // an idle-socket error must not crash the process; the pending query reports it
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw describeError(e, t);
  }
  return client;
}

export function describeError(e: unknown, t: Pick<Target, 'where' | 'user' | 'secretVar'>): SourceError {
  if (e instanceof SourceError) return e;
  const err = e as { code?: string; message?: string };
  const fix = t.secretVar ? ` Check the environment variable ${t.secretVar}.` : ' Set password_env to the name of an environment variable holding the password.';
  switch (err.code) {
    case '28P01':
    case '28000':
      return new SourceError('auth_failed', `PostgreSQL at ${t.where} rejected user "${t.user}": ${err.message}.${fix}`, { variable: t.secretVar, pg_code: err.code });
    case '3D000':
      return new SourceError('not_found', `PostgreSQL at ${t.where}: ${err.message}.`, { pg_code: err.code });
    case '42501':
      return new SourceError(
        'permission_denied',
        `PostgreSQL at ${t.where}: ${err.message}. The role "${t.user}" needs the REPLICATION attribute (ALTER ROLE ${t.user} REPLICATION), SELECT on the tables, and to create the publication: CREATE on the database and ownership of the tables (or name a publication a superuser made in \`publication\`).`,
        { pg_code: err.code },
      );
    case '55000':
      return new SourceError('server_not_ready', `PostgreSQL at ${t.where}: ${err.message}. Set wal_level = logical in postgresql.conf (and max_replication_slots, max_wal_senders >= 1), then restart the server.`, { pg_code: err.code });
    case '53400':
      return new SourceError('server_not_ready', `PostgreSQL at ${t.where}: ${err.message}. Raise max_replication_slots or drop an unused slot.`, { pg_code: err.code });
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return new SourceError('connection_failed', `Could not reach PostgreSQL at ${t.where} (${err.code}). Check the host and port${t.secretVar ? ` (from ${t.secretVar} or the config)` : ''} and that the server accepts connections from here.`, { code: err.code });
    default:
      return new SourceError('connection_failed', `PostgreSQL at ${t.where}: ${err.message ?? String(e)}`, { pg_code: err.code });
  }
}
