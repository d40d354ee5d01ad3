// Starts a single-host Trino coordinator from the cached install (install.ts) with a configuration
// from coordinator-config.ts, and waits until it accepts queries. Used by `basin warehouse up` (in the
// foreground) and by the test support (detached, shared by a whole test run).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { certificatePath, DEFAULT_CATALOG, ICEBERG_CATALOG_DDL, writeCoordinatorConfig, type CoordinatorConfig } from './coordinator-config.js';
import { installedTrinoHome, javaHome, TRINO_VERSION } from './install.js';
import { TrinoLogin, TrinoQueryError } from './trino-login.js';

export interface LocalCoordinator {
  /** https://127.0.0.1:<httpsPort>: where clients log in */
  url: string;
  /** the self-signed certificate clients trust */
  certificate: string;
  pid: number;
  child: ChildProcess;
  /** the server log (stdout and stderr of `launcher run`) */
  logFile: string;
  /** stops the JVM (SIGTERM, then SIGKILL after 20 s) */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** keep running after this process exits (its own process group); the caller records the pid */
  detached?: boolean;
  /** how long to wait for the coordinator to accept queries; default 180 s (first start ~22 s) */
  timeoutMs?: number;
  onProgress?: (line: string) => void;
}

/** Creates the Iceberg JDBC catalog's tables in its PostgreSQL database (idempotent). */
export async function prepareCatalogDatabase(db: CoordinatorConfig['catalogDb']): Promise<void> {
  const client = new pg.Client({ host: db.host, port: db.port, database: db.database, user: db.user, password: db.password });
  await client.connect();
  try {
    for (const ddl of ICEBERG_CATALOG_DDL) await client.query(ddl);
  } finally {
    await client.end();
  }
}

/** Polls /v1/info until the coordinator reports it finished starting. */
export async function waitUntilReady(url: string, timeoutMs: number, alive: () => boolean, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`Trino exited while starting; last lines of ${logFile}:\n${tail(logFile)}`);
    try {
      const res = await fetch(`${url}/v1/info`);
      if (res.ok && (await res.json()).starting === false) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Trino did not start within ${Math.round(timeoutMs / 1000)} s; last lines of ${logFile}:\n${tail(logFile)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * "Started" is not "runs queries": the coordinator must first announce itself as a worker (until
 * then: NO_NODES_AVAILABLE). One query through the Iceberg catalog also makes its first use here,
 * not in two test files at once.
 */
async function waitForQueries(login: TrinoLogin, catalog: string, timeoutMs: number, alive: () => boolean, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`Trino exited while starting; last lines of ${logFile}:\n${tail(logFile)}`);
    try {
      const active = await login.run(`SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'`);
      if (Number(active.rows[0]?.[0] ?? 0) > 0) {
        await login.run(`SELECT count(*) FROM "${catalog.replace(/"/g, '""')}".information_schema.schemata`);
        return;
      }
      if (Date.now() > deadline) throw new Error(`Trino announced no active node within ${Math.round(timeoutMs / 1000)} s; last lines of ${logFile}:\n${tail(logFile)}`);
    } catch (e) {
      if ((e as Error).message.startsWith('Trino announced no active node')) throw e;
      const retry = !(e instanceof TrinoQueryError) || e.errorName === 'NO_NODES_AVAILABLE' || e.errorName === 'SERVER_STARTING_UP';
      if (!retry) throw e;
      if (Date.now() > deadline) throw new Error(`Trino did not run queries within ${Math.round(timeoutMs / 1000)} s (${(e as Error).message}); last lines of ${logFile}:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function tail(file: string, bytes = 3000): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.slice(-bytes);
  } catch {
    return '(no log)';
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Writes the configuration, prepares the catalog database and starts the coordinator. */
export async function startLocalCoordinator(cfg: CoordinatorConfig, opts: StartOptions = {}): Promise<LocalCoordinator> {
  const home = installedTrinoHome();
  const java = javaHome();
  await prepareCatalogDatabase(cfg.catalogDb);
  const etc = writeCoordinatorConfig(cfg);
  const logFile = path.join(cfg.dir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  opts.onProgress?.(`starting Trino ${TRINO_VERSION} on https://127.0.0.1:${cfg.httpsPort} (about 20-30 s)`);
  const child = spawn(path.join(home, 'bin', 'launcher'), ['run', `--etc-dir=${etc}`, `--data-dir=${path.join(cfg.dir, 'data')}`], {
    cwd: cfg.dir,
    detached: opts.detached ?? false,
    stdio: ['ignore', out, out],
    env: { ...process.env, JAVA_HOME: java, PATH: `${path.join(java, 'bin')}:${process.env.PATH ?? ''}` },
  });
  fs.closeSync(out);
  if (opts.detached) child.unref();
  const pid = child.pid;
  if (!pid) throw new Error('could not start the Trino launcher');
  const url = `https://127.0.0.1:${cfg.httpsPort}`;
  const stop = async () => {
    if (!isAlive(pid)) return;
    try {
      process.kill(opts.detached ? -pid : pid, 'SIGTERM');
    } catch {
      return;
    }
    const deadline = Date.now() + 20_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (isAlive(pid)) process.kill(opts.detached ? -pid : pid, 'SIGKILL');
  };
  try {
    const timeoutMs = opts.timeoutMs ?? 180_000;
    const alive = () => isAlive(pid) && child.exitCode === null;
    await waitUntilReady(`http://127.0.0.1:${cfg.port}`, timeoutMs, alive, logFile);
    await waitForQueries(new TrinoLogin({ server: url, ...cfg.writer, ca: fs.readFileSync(certificatePath(cfg.dir), 'utf8') }), cfg.catalog ?? DEFAULT_CATALOG, timeoutMs, alive, logFile);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, certificate: certificatePath(cfg.dir), pid, child, logFile, stop };
}
