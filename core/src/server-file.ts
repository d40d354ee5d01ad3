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

/** What the running server answered: the HTTP status and the parsed JSON body ({} when none). */
export interface ServerAnswer<T = any> {
  status: number;
  ok: boolean;
  body: T;
}

/**
 * Calls the running server's API as the CLI: the bearer key from BASIN_API_KEY when set (needed when
 * auth is on) and the header that marks a script request. Throws when the server does not answer.
 */
export async function callServer<T = any>(server: ServerInfo, method: string, urlPath: string, body?: unknown): Promise<ServerAnswer<T>> {
  const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (process.env.BASIN_API_KEY) headers.authorization = `Bearer ${process.env.BASIN_API_KEY}`;
  let res: Response;
  try {
    res = await fetch(`${server.url}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error(`A Basin server (pid ${server.pid}) holds this project's warehouse but does not answer at ${server.url} (${(e as Error).message}). Stop it or retry.`);
  }
  const json = (await res.json().catch(() => ({}))) as T;
  return { status: res.status, ok: res.ok, body: json };
}
