// One PostgreSQL server per test file with wal_level=logical, a `shop` database and a
// password-protected role that may replicate and owns the tables (so it may publish them).
import { startPostgres, type PostgresServer } from '../../../test/support/postgres.js';

export const REPLICATOR = { user: 'replicator', password: 'r3plicat0r-pa55word' };

export async function replicationServer(): Promise<PostgresServer> {
  const pg = await startPostgres({ walLevel: 'logical' });
  pg.psql('CREATE DATABASE shop');
  pg.psql(`CREATE ROLE ${REPLICATOR.user} LOGIN REPLICATION PASSWORD '${REPLICATOR.password}'`);
  pg.psql(`GRANT ALL ON SCHEMA public TO ${REPLICATOR.user}; GRANT CREATE ON DATABASE shop TO ${REPLICATOR.user}`, 'shop');
  return pg;
}

/**
 * runs SQL in `shop` as the replicator role, so the tables it creates are its own; committed
 * synchronously (the test server defaults to asynchronous commits), as a sync reads up to the
 * WAL flushed when it starts
 */
export function asReplicator(pg: PostgresServer, sql: string): string {
  return pg.psql(`SET ROLE ${REPLICATOR.user}; SET synchronous_commit = on;\n${sql}`, 'shop');
}
