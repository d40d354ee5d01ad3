import type { SqliteDb } from '@basin/core';
import { newId, randomToken, sha256 } from './crypto.js';
import { PARTIAL_SESSION_MS } from './settings.js';

export interface SessionRow {
  id_hash: string;
  public_id: string;
  user_id: string;
  partial: number;
  method: 'password' | 'oauth' | 'setup' | 'invite';
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface SessionLimits {
  idle_timeout_minutes: number;
  session_max_days: number;
}

/** only write last_seen_at when it moved this much, so a burst of requests does not write each time */
const TOUCH_EVERY_MS = 15_000;

/**
 * Sessions carried by the `basin_session` cookie. The cookie holds a random token; the table holds its
 * SHA-256 (a database leak yields no usable session) and a separate public id used by the API.
 */
export class SessionStore {
  constructor(private readonly db: SqliteDb, private readonly now: () => Date, private readonly limits: () => SessionLimits) {}

  create(userId: string, o: { partial: boolean; method: SessionRow['method']; ip?: string | null; userAgent?: string | null }): { token: string; session: SessionRow } {
    const token = randomToken(43);
    const now = this.now();
    const expires = o.partial ? now.getTime() + PARTIAL_SESSION_MS : now.getTime() + this.limits().session_max_days * 86_400_000;
    const row: SessionRow = {
      id_hash: sha256(token),
      public_id: newId(),
      user_id: userId,
      partial: o.partial ? 1 : 0,
      method: o.method,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(expires).toISOString(),
      ip: o.ip ?? null,
      user_agent: o.userAgent?.slice(0, 300) ?? null,
    };
    this.db
      .prepare('INSERT INTO auth_sessions (id_hash, public_id, user_id, partial, method, created_at, last_seen_at, expires_at, ip, user_agent) VALUES (@id_hash, @public_id, @user_id, @partial, @method, @created_at, @last_seen_at, @expires_at, @ip, @user_agent)')
      .run(row);
    return { token, session: row };
  }

  /** the live session for a cookie token; expired ones (idle or absolute) are deleted and yield undefined */
  lookup(token: string, touch = true): SessionRow | undefined {
    const row = this.db.prepare('SELECT * FROM auth_sessions WHERE id_hash = ?').get(sha256(token)) as SessionRow | undefined;
    if (!row) return undefined;
    const now = this.now().getTime();
    const idleMs = this.limits().idle_timeout_minutes * 60_000;
    const expired = now >= Date.parse(row.expires_at) || (!row.partial && now - Date.parse(row.last_seen_at) >= idleMs);
    if (expired) {
      this.db.prepare('DELETE FROM auth_sessions WHERE id_hash = ?').run(row.id_hash);
      return undefined;
    }
    if (touch && now - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) {
      row.last_seen_at = new Date(now).toISOString();
      this.db.prepare('UPDATE auth_sessions SET last_seen_at = ? WHERE id_hash = ?').run(row.last_seen_at, row.id_hash);
    }
    return row;
  }

  listForUser(userId: string): SessionRow[] {
    const now = this.now().getTime();
    const idleMs = this.limits().idle_timeout_minutes * 60_000;
    return (this.db.prepare('SELECT * FROM auth_sessions WHERE user_id = ? AND partial = 0 ORDER BY created_at DESC').all(userId) as SessionRow[]).filter(
      (r) => now < Date.parse(r.expires_at) && now - Date.parse(r.last_seen_at) < idleMs,
    );
  }

  byPublicId(publicId: string): SessionRow | undefined {
    return this.db.prepare('SELECT * FROM auth_sessions WHERE public_id = ?').get(publicId) as SessionRow | undefined;
  }

  revoke(publicId: string): boolean {
    return this.db.prepare('DELETE FROM auth_sessions WHERE public_id = ?').run(publicId).changes === 1;
  }

  allIds(userId: string): string[] {
    return (this.db.prepare('SELECT public_id FROM auth_sessions WHERE user_id = ?').all(userId) as Array<{ public_id: string }>).map((r) => r.public_id);
  }

  revokeAllForUser(userId: string, exceptPublicId?: string): number {
    return this.db.prepare('DELETE FROM auth_sessions WHERE user_id = ? AND public_id IS NOT ?').run(userId, exceptPublicId ?? null).changes;
  }
}
