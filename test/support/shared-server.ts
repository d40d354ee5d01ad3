// Servers started once per test run and shared by every test file. node --test runs each file in its
// own process, so scripts/run-tests.mjs makes a run folder ($BASIN_TEST_RUN_DIR); the first process
// that needs server X starts it detached under a lock in that folder and records its address and the
// processes to stop; later processes read the record and reuse it; run-tests.mjs stops every recorded
// server when the run ends (also after a failure or Ctrl-C: scripts/lib/shared-servers.mjs).
// Without a run folder (a file run directly with node --test) the server lives as long as the process.
import fs from 'node:fs';
import path from 'node:path';

/** a process the runner stops: its pid, whether it leads its own process group, and the signal */
export interface OwnedProcess {
  pid: number;
  group: boolean;
  /** SIGTERM unless the server wants another (PostgreSQL: SIGINT, its fast shutdown) */
  signal?: NodeJS.Signals;
}

export interface StartedServer<T> {
  /** what other test processes need to use it (JSON) */
  info: T;
  processes: OwnedProcess[];
  /** folders removed after the processes stopped */
  dirs: string[];
}

interface Record<T> extends StartedServer<T> {
  name: string;
  startedAt: number;
}

const inProcess = new Map<string, Promise<unknown>>();

export const runDir = (): string | undefined => process.env.BASIN_TEST_RUN_DIR || undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The shared server called `name`: started by `start` in the first process that asks, reused by the
 * rest of the run. `start` must leave its processes running after this process exits (detached).
 */
export function sharedServer<T>(name: string, start: () => Promise<StartedServer<T>>): Promise<T> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`shared server names are lower-case words: ${name}`);
  let p = inProcess.get(name) as Promise<T> | undefined;
  if (!p) {
    p = acquire(name, start);
    inProcess.set(name, p);
    p.catch(() => inProcess.delete(name));
  }
  return p;
}

async function acquire<T>(name: string, start: () => Promise<StartedServer<T>>): Promise<T> {
  const dir = runDir();
  if (!dir) {
    const started = await start();
    process.once('exit', () => stopRecord({ ...started, name, startedAt: Date.now() }, false));
    return started.info;
  }
  const recordFile = path.join(dir, `${name}.json`);
  const lock = path.join(dir, `${name}.lock`);
  for (;;) {
    const existing = readRecord<T>(recordFile);
    if (existing) {
      if (existing.processes.every((p) => alive(p.pid))) return existing.info;
      // it died (killed, out of memory): clean up and start a new one
      stopRecord(existing, false);
      fs.rmSync(recordFile, { force: true });
    }
    try {
      fs.mkdirSync(lock);
    } catch {
      let owner = 0;
      try {
        owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        // being created
      }
      if (owner && !alive(owner)) fs.rmSync(lock, { recursive: true, force: true });
      else await sleep(250);
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      const again = readRecord<T>(recordFile);
      if (again && again.processes.every((p) => alive(p.pid))) return again.info;
      const started = await start();
      const record: Record<T> = { ...started, name, startedAt: Date.now() };
      const tmp = `${recordFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(record));
      fs.renameSync(tmp, recordFile);
      return started.info;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

function readRecord<T>(file: string): Record<T> | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<T>;
  } catch {
    return null;
  }
}

function signal(p: OwnedProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(p.group ? -p.pid : p.pid, sig);
  } catch {
    // gone
  }
}

/**
 * Stops one server's processes (signal, then SIGKILL after the grace period) and removes its folders.
 * Synchronous, for 'exit' handlers; scripts/lib/shared-servers.mjs does the same for the runner.
 */
function stopRecord(record: Record<unknown>, wait: boolean): void {
  for (const p of record.processes) signal(p, p.signal ?? 'SIGTERM');
  const deadline = Date.now() + (wait ? 20_000 : 0);
  while (record.processes.some((p) => alive(p.pid)) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  for (const p of record.processes) if (alive(p.pid)) signal(p, 'SIGKILL');
  for (const d of record.dirs) fs.rmSync(d, { recursive: true, force: true });
}
