import crypto from 'node:crypto';
import { migrate, type SqliteDb } from '@basin/core';

export const DEPLOY_TOKEN_PREFIX = 'basin_dt_';
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest();

export type TokenCheck = { ok: true; used: boolean } | { ok: false; reason: 'unknown' | 'expired' };

/**
 * The one-time deploy token: printed once when a server is deployed, kept only as a sha256 hash with
 * an expiry. It may start the initial sync once (then it is spent) and read its status until it
 * expires. Issuing a new token replaces the old one. Compared in constant time.
 */
export class DeployTokens {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: () => Date,
  ) {
    migrate(db, 'deploy_tokens', ['CREATE TABLE deploy_tokens (id INTEGER PRIMARY KEY CHECK (id = 1), hash BLOB NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, used_at TEXT)']);
  }

  issue(ttlHours: number): { token: string; expires_at: string } {
    const token = `${DEPLOY_TOKEN_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
    const now = this.now();
    const expires_at = new Date(now.getTime() + ttlHours * 3600_000).toISOString();
    this.db.prepare('INSERT OR REPLACE INTO deploy_tokens (id, hash, created_at, expires_at, used_at) VALUES (1, ?, ?, ?, NULL)').run(sha256(token), now.toISOString(), expires_at);
    return { token, expires_at };
  }

  check(token: string): TokenCheck {
    const row = this.db.prepare('SELECT hash, expires_at, used_at FROM deploy_tokens WHERE id = 1').get() as { hash: Buffer; expires_at: string; used_at: string | null } | undefined;
    // hash both sides to equal length, then compare without early exit
    if (!row || !crypto.timingSafeEqual(sha256(token), row.hash)) return { ok: false, reason: 'unknown' };
    if (Date.parse(row.expires_at) <= this.now().getTime()) return { ok: false, reason: 'expired' };
    return { ok: true, used: !!row.used_at };
  }

  /** spends the token (atomically: of two concurrent starts only one wins) */
  spend(): boolean {
    return this.db.prepare('UPDATE deploy_tokens SET used_at = ? WHERE id = 1 AND used_at IS NULL').run(this.now().toISOString()).changes === 1;
  }

  revoke(): void {
    this.db.prepare('DELETE FROM deploy_tokens').run();
  }
}
