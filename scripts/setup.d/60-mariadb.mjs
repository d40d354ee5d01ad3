// MariaDB server binaries for the sql_database MySQL/MariaDB tests (test/support/mariadb.ts starts a
// throwaway server with mariadb-install-db/mariadbd in a temp dir). The Debian service is not used. Idempotent.
import { ensureApt } from '../lib/apt.mjs';

export default async () => {
  ensureApt(['mariadb-server']);
};
