import type { SqliteDb } from '@basin/core';
import { randomToken, sha256 } from './crypto.js';
import { TOKEN_LIFETIME_MS } from './settings.js';

export type TokenKind = 'invite' | 'reset' | 'setup';

interface TokenRow {
  token_hash: string;
  kind: TokenKind;
  user_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Single-use links (invite, password reset, first-admin setup); only their SHA-256 is stored. */
export class TokenStore {
  constructor(private readonly db: SqliteDb, private readonly now: () => Date) {}

  /** issues a new token, invalidating earlier unused ones of the same kind for that user */
  issue(kind: TokenKind, userId: string | null): { token: string; expires_at: string } {
    const token = randomToken(43);
    const now = this.now();
    const expires = new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString();
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM auth_tokens WHERE kind = ? AND user_id IS ? AND used_at IS NULL').run(kind, userId);
      this.db.prepare('INSERT INTO auth_tokens (token_hash, kind, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(sha256(token), kind, userId, now.toISOString(), expires);
    })();
    return { token, expires_at: expires };
  }

  /** a token that exists, is unused and unexpired; undefined otherwise */
  find(token: string, kinds: TokenKind[]): TokenRow | undefined {
    const row = this.db.prepare('SELECT * FROM auth_tokens WHERE token_hash = ?').get(sha256(token)) as TokenRow | undefined;
    if (!row || !kinds.includes(row.kind) || row.used_at) return undefined;
    if (Date.parse(row.expires_at) <= this.now().getTime()) return undefined;
    return row;
  }

  /** marks a token used; false when someone else used it first (single use under concurrency) */
  consume(token: string): boolean {
    return this.db.prepare('UPDATE auth_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL').run(this.now().toISOString(), sha256(token)).changes === 1;
  }

  hasPending(kind: TokenKind, userId: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM auth_tokens WHERE kind = ? AND user_id = ? AND used_at IS NULL AND expires_at > ?').get(kind, userId, this.now().toISOString());
  }
}
