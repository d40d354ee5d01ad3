// A throwaway PostgreSQL server for tests: initdb into a temp dir, pg_ctl start on 127.0.0.1 with a
// free port and the socket in the same dir, stop() removes everything. Uses Debian's server binaries
// (scripts/setup.d/20-postgresql.mjs installs them). As root, the server runs as the `postgres` user,
// because PostgreSQL refuses to run as root.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.js';

export interface PostgresServer {
  /** superuser URL, trusted on loopback: postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  host: string;
  port: number;
  /** the trusted superuser */
  user: string;
  database: string;
  /** URL for another role/database on this server (that role authenticates with a password) */
  urlFor(user: string, password: string, database?: string): string;
  /** runs SQL through psql as the superuser and returns its unaligned output */
  psql(sql: string, database?: string): string;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

/** The newest /usr/lib/postgresql/<ver>/bin holding initdb, or null when the server is not installed. */
export function postgresBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0]!, 'bin') : null;
}


const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** runs a server binary, as the postgres user when we are root */
function run(bin: string, args: string[], opts: { input?: string } = {}): string {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', SUPERUSER, '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', input: opts.input, stdio: ['pipe', 'pipe', 'pipe'] });
}

interface Cluster {
  bin: string;
  data: string;
  dir: string;
}
const live = new Set<Cluster>();
let exitHook = false;

/** immediate shutdown and removal; synchronous so it also works in an 'exit' handler */
function destroy(c: Cluster): void {
  try {
    run(path.join(c.bin, 'pg_ctl'), ['-D', c.data, '-m', 'immediate', '-w', 'stop']);
  } catch {
    // not running
  }
  fs.rmSync(c.dir, { recursive: true, force: true });
  live.delete(c);
}

export interface StartPostgresOptions {
  /** `logical` for logical replication (pg_replication tests); default: the server's own (replica) */
  walLevel?: 'replica' | 'logical';
  /**
   * Leave the cluster running when this process exits (a server shared by a whole test run, see
   * shared-server.ts): the caller records `pid()` and `dir` and the test runner stops it.
   */
  keepAfterExit?: boolean;
}

/** psql, URLs and the like for a cluster another process started (a shared server). */
export function attachPostgres(host: string, port: number): Omit<PostgresServer, 'stop'> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql; run `node scripts/setup.mjs postgresql`.');
  return {
    url: `postgres://${SUPERUSER}@${host}:${port}/postgres`,
    host,
    port,
    user: SUPERUSER,
    database: 'postgres',
    urlFor: (user, password, database = 'postgres') => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}/${encodeURIComponent(database)}`,
    psql: (sql, database = 'postgres') =>
      run(path.join(bin, 'psql'), ['-h', host, '-p', String(port), '-U', SUPERUSER, '-d', database, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1'], { input: sql }),
  };
}

/**
 * Starts a fresh cluster. Loopback connections of the superuser are trusted; every other role must
 * give its password (scram-sha-256), so tests can exercise a wrong password.
 */
export async function startPostgres(opts: StartPostgresOptions = {}): Promise<PostgresServer & { dir: string; pid(): number }> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql; run `node scripts/setup.mjs postgresql`.');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-pg-'));
  const data = path.join(dir, 'data');
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, uid, gid);
  }
  fs.chmodSync(dir, 0o700);
  const handle: Cluster = { bin, data, dir };
  if (!opts.keepAfterExit) live.add(handle);
  if (!exitHook && !opts.keepAfterExit) {
    exitHook = true;
    process.once('exit', () => [...live].forEach(destroy));
  }
  try {
    run(path.join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C']);
    fs.writeFileSync(
      path.join(data, 'pg_hba.conf'),
      [
        'local all all trust',
        `host all ${SUPERUSER} 127.0.0.1/32 trust`,
        'host all all 127.0.0.1/32 scram-sha-256',
        '',
      ].join('\n'),
    );
    let port = 0;
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      const serverOpts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off${opts.walLevel ? ` -c wal_level=${opts.walLevel}` : ''}`;
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'server.log'), '-o', serverOpts, '-w', '-t', '60', 'start']);
        break;
      } catch (e) {
        // another process may have taken the port between probe and start
        if (attempt >= 3) throw new Error(`pg_ctl start failed: ${(e as Error).message}\n${safeRead(path.join(dir, 'server.log'))}`);
      }
    }
    const host = '127.0.0.1';
    const psql = (sql: string, database = 'postgres') =>
      run(path.join(bin, 'psql'), ['-h', host, '-p', String(port), '-U', SUPERUSER, '-d', database, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1'], { input: sql });
    let stopped = false;
    return {
      url: `postgres://${SUPERUSER}@${host}:${port}/postgres`,
      host,
      port,
      user: SUPERUSER,
      database: 'postgres',
      urlFor: (user, password, database = 'postgres') => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${port}/${encodeURIComponent(database)}`,
      psql,
      dir,
      /** the postmaster's pid (first line of postmaster.pid) */
      pid: () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
        } catch {
          // already down; still remove the files
        }
        fs.rmSync(dir, { recursive: true, force: true });
        live.delete(handle);
      },
    };
  } catch (e) {
    destroy(handle);
    throw e;
  }
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}
