// A throwaway FerretDB v1 server (MongoDB wire protocol, SQLite backend) for tests: its data in a temp
// dir, 127.0.0.1 on a free port, authentication enforced (SCRAM, one user made at start), stop()
// removes everything. scripts/setup.d/60-ferretdb.mjs builds the binary with Go.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

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

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

const live = new Set<{ proc: ChildProcess; dir: string }>();
let exitHook = false;

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
  for (let i = 0; !(await accepts(port)); i++) {
    if (proc.exitCode !== null || i > 300) {
      const log = fs.existsSync(path.join(dir, 'ferretdb.log')) ? fs.readFileSync(path.join(dir, 'ferretdb.log'), 'utf8').slice(-2000) : '';
      proc.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      live.delete(handle);
      throw new Error(`ferretdb did not start on port ${port}\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    pid: proc.pid!,
    username,
    password,
    urlFor: (u, p, db) => `mongodb://${encodeURIComponent(u)}:${encodeURIComponent(p)}@127.0.0.1:${port}/${db ? encodeURIComponent(db) : ''}?authSource=admin`,
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
