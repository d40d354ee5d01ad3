// A throwaway MariaDB server for tests: mariadb-install-db into a temp dir, mariadbd on 127.0.0.1 with
// a free port and the socket in the same dir, stop() removes everything. Uses Debian's mariadb-server
// binaries (scripts/setup.d/60-mariadb.mjs installs them); the Debian service itself is not used.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, logTail, trackServer } from './server-process.js';

export interface MariadbServer {
  host: string;
  port: number;
  /** runs SQL through the mariadb client as root (socket auth) and returns its tab-separated output */
  sql(sql: string, database?: string): string;
  /** mysql:// URL for a user on this server */
  urlFor(user: string, password: string, database: string): string;
  stop(): Promise<void>;
}

const BIN = { install: '/usr/bin/mariadb-install-db', server: '/usr/sbin/mariadbd', client: '/usr/bin/mariadb' };



export async function startMariadb(): Promise<MariadbServer> {
  if (!fs.existsSync(BIN.server)) throw new Error('MariaDB server binaries not found (/usr/sbin/mariadbd); run `node scripts/setup.mjs mariadb`.');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-mariadb-'));
  const data = path.join(dir, 'data');
  const socket = path.join(dir, 'mysqld.sock');
  const user = os.userInfo().username;
  execFileSync(BIN.install, ['--no-defaults', `--datadir=${data}`, `--user=${user}`, '--auth-root-authentication-method=socket', '--skip-test-db'], { stdio: 'pipe' });
  const port = await freePort();
  const proc = spawn(
    BIN.server,
    ['--no-defaults', `--datadir=${data}`, `--socket=${socket}`, `--port=${port}`, '--bind-address=127.0.0.1', `--user=${user}`, `--pid-file=${path.join(dir, 'mysqld.pid')}`, `--log-error=${path.join(dir, 'error.log')}`, '--innodb-buffer-pool-size=64M', '--innodb-flush-log-at-trx-commit=0', '--skip-name-resolve'],
    { stdio: 'ignore' },
  );
  const server = trackServer(proc, dir);
  const sql = (text: string, database?: string) =>
    execFileSync(BIN.client, ['--no-defaults', `--socket=${socket}`, '-uroot', '-N', '-B', ...(database ? [database] : [])], { encoding: 'utf8', input: text, stdio: ['pipe', 'pipe', 'pipe'] });
  let lastError = '';
  const answers = () => {
    try {
      sql('SELECT 1');
      return true;
    } catch (e) {
      lastError = (e as Error).message;
      return false;
    }
  };
  await server.waitReady(answers, 300, () => new Error(`mariadbd did not start: ${lastError}\n${logTail(path.join(dir, 'error.log'))}`));
  return {
    host: '127.0.0.1',
    port,
    sql,
    urlFor: (u, p, db) => `mysql://${encodeURIComponent(u)}:${encodeURIComponent(p)}@127.0.0.1:${port}/${encodeURIComponent(db)}`,
    stop: server.stop,
  };
}
