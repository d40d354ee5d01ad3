// PostgreSQL server binaries for the sql_database source tests (test/support/postgres.ts starts a
// throwaway cluster with initdb/pg_ctl from /usr/lib/postgresql/<ver>/bin). Idempotent.
import { ensureApt } from '../lib/apt.mjs';

export default async () => {
  ensureApt(['postgresql']);
};
