// The PostgreSQL that holds the Iceberg JDBC catalog of a single-host Trino (`basin warehouse up`):
// Debian's server binaries, a cluster under the project's data folder made once (initdb), started on
// a free loopback port for as long as the coordinator runs. The superuser is trusted on the socket
// only; Trino logs in as the `iceberg` role with a password generated once and kept beside the data.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface CatalogPostgres {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length) throw new Error('the PostgreSQL server that holds the Iceberg catalog is not installed; install Debian\'s "postgresql" package (node scripts/setup.mjs postgresql)');
  return path.join(base, versions[0]!, 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** runs a server binary, as the postgres user when we are root (PostgreSQL refuses to run as root) */
function run(bin: string, args: string[], input?: string): string {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', SUPERUSER, '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

export async function startCatalogPostgres(dir: string, log: (line: string) => void): Promise<CatalogPostgres> {
  const bin = binDir();
  const data = path.join(dir, 'data');
  const secretFile = path.join(dir, 'iceberg-password');
  fs.mkdirSync(dir, { recursive: true });
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, uid, gid);
  }
  fs.chmodSync(dir, 0o700);
  const fresh = !fs.existsSync(path.join(data, 'PG_VERSION'));
  if (fresh) {
    log(`creating the Iceberg catalog's PostgreSQL cluster in ${data}`);
    run(path.join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C']);
    fs.writeFileSync(path.join(data, 'pg_hba.conf'), ['local all all trust', 'host all all 127.0.0.1/32 scram-sha-256', ''].join('\n'));
  }
  const port = await freePort();
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'server.log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-w', '-t', '60', 'start']);
  const psql = (sql: string) => run(path.join(bin, 'psql'), ['-h', dir, '-p', String(port), '-U', SUPERUSER, '-d', 'postgres', '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1'], sql);
  let password: string;
  if (fresh || !fs.existsSync(secretFile)) {
    password = crypto.randomBytes(18).toString('base64url');
    psql(`DO $$BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'iceberg') THEN CREATE ROLE iceberg LOGIN; END IF; END$$; ALTER ROLE iceberg PASSWORD '${password}';`);
    if (!psql(`SELECT 1 FROM pg_database WHERE datname = 'iceberg'`).trim()) psql('CREATE DATABASE iceberg OWNER iceberg');
    fs.writeFileSync(secretFile, password, { mode: 0o600 });
  } else password = fs.readFileSync(secretFile, 'utf8').trim();
  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    database: 'iceberg',
    user: 'iceberg',
    password,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } catch {
        // already down
      }
    },
  };
}
