import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './fsutil.js';

/** `.basin/server.json`: written by a listening server (the sync plugin writes it once the port is open) so the CLI calls its API instead of opening the warehouse. */
export interface ServerInfo {
  pid: number;
  url: string;
  started_at: string;
}

export const serverFile = (projectDir: string) => path.join(projectDir, '.basin', 'server.json');

export function writeServerInfo(projectDir: string, info: ServerInfo): void {
  writeFileAtomic(serverFile(projectDir), JSON.stringify(info, null, 2) + '\n', 0o600);
}

export function removeServerInfo(projectDir: string, pid = process.pid): void {
  const info = readServerInfo(projectDir);
  if (info && info.pid === pid) fs.rmSync(serverFile(projectDir), { force: true });
}

export function readServerInfo(projectDir: string): ServerInfo | null {
  try {
    const v = JSON.parse(fs.readFileSync(serverFile(projectDir), 'utf8'));
    return typeof v?.pid === 'number' && typeof v?.url === 'string' ? (v as ServerInfo) : null;
  } catch {
    return null;
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** the running server of a project, or null (a stale file of a dead process is ignored) */
export function runningServer(projectDir: string): ServerInfo | null {
  const info = readServerInfo(projectDir);
  return info && pidAlive(info.pid) ? info : null;
}
