// What every throwaway test server (Dovecot, FerretDB, Kafka, MariaDB, ...) needs around its own
// start command: a free loopback port, a readiness poll that gives up when the process dies, and a
// stop that ends the process and removes its temp dir, also when the test process exits early.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** a loopback port that was free a moment ago (the server binds it right after) */
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

/** whether something accepts TCP connections on 127.0.0.1:port */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** the last `chars` characters of a log file, or '' when it is not there */
export function logTail(file: string, chars = 2000): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').slice(-chars) : '';
}

export interface ServerProcess {
  /** SIGTERM, up to 10 s for a clean exit, then SIGKILL; removes the dir. Idempotent. */
  stop(): Promise<void>;
  /**
   * Polls `ready` every 100 ms until it says yes. When the process exits or `tries` polls pass, the
   * server is killed, its dir removed, and the error from `failure` is thrown.
   */
  waitReady(ready: () => Promise<boolean> | boolean, tries: number, failure: () => Error): Promise<void>;
}

const live = new Set<{ proc: ChildProcess; dir: string }>();
let exitHook = false;

/** tracks a started server process and its temp dir, so nothing outlives the test process */
export function trackServer(proc: ChildProcess, dir: string): ServerProcess {
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
  const running = () => proc.exitCode === null && proc.signalCode === null;
  const discard = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    live.delete(handle);
  };
  let stopped = false;
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      if (running()) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (running()) proc.kill('SIGKILL');
      }
      discard();
    },
    async waitReady(ready, tries, failure) {
      for (let i = 0; ; i++) {
        let ok = false;
        try {
          ok = await ready();
        } catch {
          ok = false;
        }
        if (ok) return;
        if (!running() || i > tries) {
          const err = failure();
          stopped = true;
          proc.kill('SIGKILL');
          discard();
          throw err;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
