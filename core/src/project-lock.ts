import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pidAlive } from './server-file.js';

/** `.basin/basin.lock`: which process has the project open (its warehouse and state database). */
export const lockFile = (projectDir: string) => path.join(projectDir, '.basin', 'basin.lock');

interface LockInfo {
  pid: number;
  hostname: string;
  started_at: string;
}

/** lock files held by this process (a second app on the same project in one process is refused too) */
const heldHere = new Set<string>();

export class ProjectLockedError extends Error {
  constructor(
    readonly holder: LockInfo,
    file: string,
  ) {
    super(
      `Another Basin process (pid ${holder.pid}, started ${holder.started_at}) has this project open (${file}). ` +
        `Stop it first (Ctrl-C in its terminal, or kill ${holder.pid}); while a server runs, CLI commands go through its API.`,
    );
    this.name = 'ProjectLockedError';
  }
}

export interface ProjectLock {
  release(): void;
}

function readLock(file: string): LockInfo | null {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof v?.pid === 'number' ? (v as LockInfo) : null;
  } catch {
    return null;
  }
}

/**
 * Takes the project's exclusive lock: the file is created with O_EXCL and names this process. A lock
 * left by a process that is gone (kill -9, power loss) is taken over; one held by a live process (or
 * by another app in this process) is refused with ProjectLockedError. A lock written by another host
 * (a shared file system) is trusted as held, since its process cannot be checked from here.
 */
export function acquireProjectLock(projectDir: string): ProjectLock {
  const file = lockFile(projectDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mine: LockInfo = { pid: process.pid, hostname: os.hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, JSON.stringify(mine) + '\n');
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw e;
      const holder = readLock(file);
      if (!holder) {
        // being written right now by another process, or garbage: look again before taking it over
        if (attempt === 0) continue;
      } else {
        const sameHost = holder.hostname === mine.hostname;
        const live = !sameHost || (holder.pid === process.pid ? heldHere.has(file) : pidAlive(holder.pid));
        if (live) throw new ProjectLockedError(holder, file);
      }
      fs.rmSync(file, { force: true });
    }
  }
  heldHere.add(file);
  const onExit = () => release();
  process.once('exit', onExit);
  let released = false;
  function release(): void {
    if (released) return;
    released = true;
    process.off('exit', onExit);
    heldHere.delete(file);
    if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  }
  return { release };
}
