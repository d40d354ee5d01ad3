// A throwaway MariaDB server for tests: mariadb-install-db into a temp dir, mariadbd on 127.0.0.1 with
// a free port and the socket in the same dir, stop() removes everything. Uses Debian's mariadb-server
// binaries (scripts/setup.d/60-mariadb.mjs installs them); the Debian service itself is not used.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const live = new Set<{ proc: ChildProcess; dir: string }>();
let exitHook = false;

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
  const handle = { proc, dir };
  live.add(handle);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const h of live) {
        h.proc.kill('SIGKILL');
        fs.rmSync(h.dir, { recursive: true, force: true });
      }
    });
  }
  const sql = (text: string, database?: string) =>
    execFileSync(BIN.client, ['--no-defaults', `--socket=${socket}`, '-uroot', '-N', '-B', ...(database ? [database] : [])], { encoding: 'utf8', input: text, stdio: ['pipe', 'pipe', 'pipe'] });
  for (let i = 0; ; i++) {
    try {
      sql('SELECT 1');
      break;
    } catch (e) {
      if (proc.exitCode !== null || i > 300) {
        const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-2000) : '';
        proc.kill('SIGKILL');
        fs.rmSync(dir, { recursive: true, force: true });
        live.delete(handle);
        throw new Error(`mariadbd did not start: ${(e as Error).message}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    sql,
    urlFor: (u, p, db) => `mysql://${encodeURIComponent(u)}:${encodeURIComponent(p)}@127.0.0.1:${port}/${encodeURIComponent(db)}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      live.delete(handle);
    },
  };
}
