import { httpCall, type Principal } from '@basin/core';
import { supersetRole } from './roles.js';

/** The Superset account that stands for a Basin user (its username is the e-mail). */
export interface SupersetIdentity {
  username: string;
  role: 'Admin' | 'Alpha' | 'Gamma';
  /** random, sealed in auth.db, never shown: only the proxy sends it, to Superset on loopback */
  password: string;
}

/** The local account when authentication is off (auth.enabled: false). */
export const LOCAL_USERNAME = 'admin@basin.local';

export function identityOf(p: Principal, password: (userId: string | null) => string): SupersetIdentity {
  return { username: p.email ?? LOCAL_USERNAME, role: supersetRole(p), password: password(p.userId) };
}

/** The headers Superset's sign-in hook trusts, only with this start's shared secret. */
export function signInHeaders(secret: string, id: SupersetIdentity): Record<string, string> {
  return { 'x-basin-proxy-secret': secret, 'x-basin-user': id.username, 'x-basin-role': id.role, 'x-basin-password': id.password };
}

/**
 * Signs the user in to Superset (creating the account on first use) and returns the value of its session
 * cookie, for Basin to set as `bi.SESSION` next to its own session at login. Null when Superset does
 * not answer in time: the proxy then signs the user in on the first /bi request instead.
 */
export async function openSupersetSession(port: number, secret: string, id: SupersetIdentity, timeoutMs = 10_000): Promise<string | null> {
  try {
    const res = await httpCall(`http://127.0.0.1:${port}/bi/api/v1/me/`, { method: 'GET', headers: signInHeaders(secret, id), timeoutMs });
    if (res.status < 200 || res.status >= 300) return null;
    const set = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('bi.SESSION='));
    return set ? set.slice('bi.SESSION='.length).split(';')[0]! : null;
  } catch {
    return null;
  }
}
