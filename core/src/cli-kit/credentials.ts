// Stored logins of `basin login`: one API key per server URL, in the user's config directory
// (~/.config/basin/credentials.json, mode 0600), so commands reach a running server without BASIN_API_KEY.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../fsutil.js';

export interface StoredLogin {
  key: string;
  email?: string | null;
  saved_at: string;
}

export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.BASIN_CONFIG_HOME ?? path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'basin');
  return path.join(base, 'credentials.json');
}

const origin = (url: string) => new URL(url).origin;

function readAll(env: NodeJS.ProcessEnv): Record<string, StoredLogin> {
  try {
    const v = JSON.parse(fs.readFileSync(credentialsFile(env), 'utf8'));
    return v && typeof v === 'object' && v.servers && typeof v.servers === 'object' ? v.servers : {};
  } catch {
    return {};
  }
}

export function storedLogin(serverUrl: string, env: NodeJS.ProcessEnv = process.env): StoredLogin | null {
  return readAll(env)[origin(serverUrl)] ?? null;
}

export function saveLogin(serverUrl: string, login: StoredLogin, env: NodeJS.ProcessEnv = process.env): string {
  const all = readAll(env);
  all[origin(serverUrl)] = login;
  const file = credentialsFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, JSON.stringify({ servers: all }, null, 2) + '\n', 0o600);
  return file;
}

export function forgetLogin(serverUrl: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const all = readAll(env);
  if (!all[origin(serverUrl)]) return false;
  delete all[origin(serverUrl)];
  writeFileAtomic(credentialsFile(env), JSON.stringify({ servers: all }, null, 2) + '\n', 0o600);
  return true;
}

/** the key a command sends to a server: BASIN_API_KEY wins over a stored login */
export function apiKeyFor(serverUrl: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return env.BASIN_API_KEY || storedLogin(serverUrl, env)?.key || null;
}
