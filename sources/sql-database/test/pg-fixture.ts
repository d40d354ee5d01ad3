// One PostgreSQL server per test file, with a `shop` database and a password-protected reader role.
import { startPostgres, type PostgresServer } from '../../../test/support/postgres.js';

export const READER = { user: 'reader', password: 'r3ader-pa55word' };

export async function shopServer(): Promise<PostgresServer> {
  const pg = await startPostgres();
  pg.psql('CREATE DATABASE shop');
  pg.psql(`CREATE ROLE ${READER.user} LOGIN PASSWORD '${READER.password}'`);
  pg.psql(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO ${READER.user}`, 'shop');
  return pg;
}
