// One PostgreSQL cluster for the whole test run (shared-server.ts): the warehouse backend tests, the
// Trino catalog and the job queue each take their own database and roles in it.
import crypto from 'node:crypto';
import { attachPostgres, startPostgres, type PostgresServer } from './postgres.js';
import { sharedServer } from './shared-server.js';

export type SharedPostgres = Omit<PostgresServer, 'stop'>;

export async function sharedPostgres(): Promise<SharedPostgres> {
  const info = await sharedServer('postgres', async () => {
    const pg = await startPostgres({ keepAfterExit: true });
    // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, nothing waits for them
    return { info: { host: pg.host, port: pg.port }, processes: [{ pid: pg.pid(), group: false, signal: 'SIGINT' as const }], dirs: [pg.dir] };
  });
  return attachPostgres(info.host, info.port);
}

export interface FreshDatabase {
  database: string;
  user: string;
  password: string;
  /** postgres://user:password@host:port/database */
  url: string;
}

/** A new database owned by a new login role (random names), so tests sharing the cluster never meet. */
export function freshDatabase(server: SharedPostgres, prefix = 'test'): FreshDatabase {
  const suffix = crypto.randomBytes(5).toString('hex');
  const database = `${prefix}_${suffix}`;
  const user = `${prefix}_${suffix}_owner`;
  const password = crypto.randomBytes(12).toString('hex');
  server.psql(`CREATE ROLE "${user}" LOGIN PASSWORD '${password}'; CREATE DATABASE "${database}" OWNER "${user}";`);
  return { database, user, password, url: server.urlFor(user, password, database) };
}
