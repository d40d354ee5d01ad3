import { SourceError, type SourceContext } from '@basin/sdk';
import type { MongoClient, MongoClientOptions } from 'mongodb';
import type { MongodbConfig } from './config.js';

/** What a session needs: the connected client, the database name and a label without credentials. */
export interface Connection {
  client: MongoClient;
  database: string;
  where: string;
}

const URL_PARTS = /^(mongodb(?:\+srv)?):\/\/(?:[^@/]*@)?([^/?]+)(?:\/([^?]*))?/;

/** host list and database of a connection URL, never its user or password */
function parseUrl(url: string, variable: string): { hosts: string; database?: string } {
  const m = URL_PARTS.exec(url);
  if (!m) throw new SourceError('invalid_config', `${variable} must hold a mongodb:// or mongodb+srv:// URL.`, { variable });
  const db = m[3] ? decodeURIComponent(m[3]) : '';
  return { hosts: `${m[1]}://${m[2]}`, ...(db ? { database: db } : {}) };
}

/** Where the config points, for messages (no credentials). */
export function describeTarget(ctx: SourceContext<MongodbConfig>): string {
  const cfg = ctx.config;
  if (cfg.connection_url_env) {
    try {
      return `MongoDB at ${parseUrl(ctx.secret(cfg.connection_url_env), cfg.connection_url_env).hosts}`;
    } catch {
      return `MongoDB (${cfg.connection_url_env})`;
    }
  }
  return `MongoDB at ${cfg.host ?? '?'}:${cfg.port}`;
}

/** Connects with the URL from `connection_url_env` or host/port/username/password_env. */
export async function connect(ctx: SourceContext<MongodbConfig>): Promise<Connection> {
  const cfg = ctx.config;
  const { MongoClient } = await import('mongodb');
  const timeout = cfg.connect_timeout_seconds * 1000;
  const options: MongoClientOptions = {
    serverSelectionTimeoutMS: timeout,
    connectTimeoutMS: timeout,
    appName: 'basin',
    // int64 values stay Long (converted to exact numbers or text), not silently rounded doubles
    promoteLongs: false,
  };
  let url: string;
  let database = cfg.database;
  let where: string;
  if (cfg.connection_url_env) {
    url = ctx.secret(cfg.connection_url_env);
    const parsed = parseUrl(url, cfg.connection_url_env);
    database ??= parsed.database;
    where = `MongoDB at ${parsed.hosts}`;
  } else {
    if (!cfg.host) throw new SourceError('invalid_config', 'mongodb: set connection_url_env, or host (with username and password_env when the server requires a login).');
    url = `mongodb://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${cfg.port}/`;
    where = `MongoDB at ${cfg.host}:${cfg.port}`;
    if (cfg.tls) options.tls = true;
    if (cfg.username) {
      if (!cfg.password_env) throw new SourceError('invalid_config', 'mongodb: username is set but password_env is not; name the variable that holds the password.');
      options.auth = { username: cfg.username, password: ctx.secret(cfg.password_env) };
      options.authSource = cfg.auth_source;
    }
  }
  if (!database) throw new SourceError('invalid_config', `mongodb: set database (the database to read)${cfg.connection_url_env ? ` or put it in the URL of ${cfg.connection_url_env}` : ''}.`);
  const client = new MongoClient(url, options);
  try {
    await client.connect();
    // a ping: connect() alone does not run a command that needs the login on every server
    await client.db(database).command({ ping: 1 });
  } catch (e) {
    await client.close().catch(() => undefined);
    throw describeError(e, ctx, where);
  }
  return { client, database, where };
}

const NET_CODES = /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|ENETUNREACH)$/;

/** the first network error code in an error's cause chain (the driver wraps them) */
function networkCode(e: unknown): string | undefined {
  const seen = new Set<unknown>();
  const stack: unknown[] = [e];
  while (stack.length) {
    const x = stack.pop() as { code?: unknown; cause?: unknown; reason?: { servers?: Map<string, { error?: unknown }> } } | null;
    if (!x || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    if (typeof x.code === 'string' && NET_CODES.test(x.code)) return x.code;
    const m = /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|ENETUNREACH)\b/.exec(String((x as { message?: unknown }).message ?? ''));
    if (m) return m[1];
    stack.push(x.cause);
    for (const s of x.reason?.servers?.values() ?? []) stack.push(s.error);
  }
  return undefined;
}

/** A driver or network error as a SourceError that says what to fix, without any secret. */
export function describeError(e: unknown, ctx: SourceContext<MongodbConfig>, where = describeTarget(ctx)): SourceError {
  if (e instanceof SourceError) return e;
  const cfg = ctx.config;
  const err = e as { name?: string; code?: number | string; codeName?: string; message?: string };
  const variable = cfg.connection_url_env ?? cfg.password_env;
  if (err.code === 18 || err.codeName === 'AuthenticationFailed' || err.name === 'MongoMissingCredentialsError') {
    const who = cfg.connection_url_env ? `the user in ${cfg.connection_url_env}` : `user "${cfg.username ?? ''}" (auth_source ${cfg.auth_source})`;
    return new SourceError('auth_failed', `${where} rejected ${who}: authentication failed. Check ${variable ? `the environment variable ${variable}` : 'username and password_env'}.`, variable ? { variable } : {});
  }
  if (err.code === 13 || err.codeName === 'Unauthorized') {
    return new SourceError('forbidden', `${where}: not allowed (${err.message ?? 'unauthorized'}). ${cfg.username || cfg.connection_url_env ? 'Give the user the read role on the database.' : 'The server requires a login: set username and password_env, or connection_url_env.'}`);
  }
  const net = networkCode(e);
  if (net || err.name === 'MongoServerSelectionError' || err.name === 'MongoNetworkError' || err.name === 'MongoNetworkTimeoutError') {
    const fix = cfg.connection_url_env ? `the host and port in ${cfg.connection_url_env}` : 'host and port in the config';
    return new SourceError('connection_failed', `Could not reach ${where}${net ? ` (${net})` : ` within ${cfg.connect_timeout_seconds}s`}. Check ${fix}, and that the server is running and reachable from here.`, net ? { code: net } : {});
  }
  if (err.name === 'MongoParseError' || err.name === 'MongoAPIError') {
    return new SourceError('invalid_config', `${cfg.connection_url_env ?? 'mongodb'}: the connection settings are not valid (${err.name}). Check the URL's format and options.`);
  }
  return new SourceError('read_failed', `${where}: ${err.name ?? 'error'}${err.codeName ? ` ${err.codeName}` : ''}: ${err.message ?? String(e)}`);
}
