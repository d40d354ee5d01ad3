// A throwaway FerretDB v1 server (MongoDB wire protocol, SQLite backend) for tests: its data in a temp
// dir, 127.0.0.1 on a free port, authentication enforced (SCRAM, one user made at start), stop()
// removes everything. scripts/setup.d/60-ferretdb.mjs builds the binary with Go.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accepts, freePort, logTail, trackServer } from './server-process.js';

export interface FerretdbServer {
  host: string;
  port: number;
  /** the server's process id (tests freeze it with SIGSTOP to hold a read mid-way) */
  pid: number;
  /** the user made at start (authSource admin) */
  username: string;
  password: string;
  /** mongodb:// URL for a user on this server */
  urlFor(user: string, password: string, database?: string): string;
  stop(): Promise<void>;
}

const VERSION = 'v1.24.2';

export function ferretdbBin(): string | null {
  const dir = process.env.BASIN_FERRETDB_DIR ?? path.join(os.homedir(), '.cache', 'basin', 'ferretdb');
  const bin = path.join(dir, VERSION, 'ferretdb');
  return fs.existsSync(bin) ? bin : null;
}




export async function startFerretdb(opts: { username?: string; password?: string } = {}): Promise<FerretdbServer> {
  const bin = ferretdbBin();
  if (!bin) throw new Error(`FerretDB ${VERSION} is not built; run: node scripts/setup.mjs ferretdb`);
  const username = opts.username ?? 'basin_admin';
  const password = opts.password ?? 'ferret-t3st-pa55word';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-ferretdb-'));
  fs.mkdirSync(path.join(dir, 'data'));
  const port = await freePort();
  const proc = spawn(
    bin,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${path.join(dir, 'data')}/`,
      `--listen-addr=127.0.0.1:${port}`,
      '--debug-addr=-',
      '--telemetry=disable',
      `--state-dir=${dir}`,
      '--log-level=warn',
      // without it FerretDB v1 accepts any credentials; with it, SCRAM users are checked
      '--test-enable-new-auth',
      `--setup-username=${username}`,
      `--setup-password=${password}`,
      '--setup-database=admin',
    ],
    { stdio: ['ignore', 'ignore', fs.openSync(path.join(dir, 'ferretdb.log'), 'a')] },
  );
  const server = trackServer(proc, dir);
  await server.waitReady(() => accepts(port), 300, () => new Error(`ferretdb did not start on port ${port}\n${logTail(path.join(dir, 'ferretdb.log'))}`));
  return {
    host: '127.0.0.1',
    port,
    pid: proc.pid!,
    username,
    password,
    urlFor: (u, p, db) => `mongodb://${encodeURIComponent(u)}:${encodeURIComponent(p)}@127.0.0.1:${port}/${db ? encodeURIComponent(db) : ''}?authSource=admin`,
    stop: server.stop,
  };
}
