import crypto from 'node:crypto';
import type { SqliteDb } from '@basin/core';
import { newId, sha256 } from './crypto.js';

export const API_KEY_PREFIX = 'basin_ak_';
const KEY_RE = /^basin_ak_[A-Za-z0-9_-]{32}$/;

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export const toPublicKey = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.created_at,
  expires_at: k.expires_at,
  last_used_at: k.last_used_at,
  revoked_at: k.revoked_at,
});

/** `basin_ak_` + 32 URL-safe characters (24 random bytes); only the SHA-256 is stored. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + crypto.randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, 12), hash: sha256(key) };
}

export class ApiKeyStore {
  constructor(private readonly db: SqliteDb, private readonly now: () => Date) {}

  create(userId: string, name: string, expiresAt: string | null): { key: string; record: ApiKeyRow } {
    const g = generateApiKey();
    const id = newId();
    this.db
      .prepare('INSERT INTO auth_api_keys (id, user_id, name, prefix, key_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, userId, name, g.prefix, g.hash, this.now().toISOString(), expiresAt);
    return { key: g.key, record: this.byId(id)! };
  }

  byId(id: string): ApiKeyRow | undefined {
    return this.db.prepare('SELECT * FROM auth_api_keys WHERE id = ?').get(id) as ApiKeyRow | undefined;
  }

  listForUser(userId: string): ApiKeyRow[] {
    return this.db.prepare('SELECT * FROM auth_api_keys WHERE user_id = ? ORDER BY created_at DESC').all(userId) as ApiKeyRow[];
  }

  /** the usable key for a presented bearer token: well-formed, known, not revoked, not expired */
  lookup(presented: string): ApiKeyRow | undefined {
    if (!KEY_RE.test(presented)) return undefined;
    const row = this.db.prepare('SELECT * FROM auth_api_keys WHERE key_hash = ?').get(sha256(presented)) as ApiKeyRow | undefined;
    if (!row || row.revoked_at) return undefined;
    const now = this.now();
    if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) return undefined;
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > 60_000) {
      this.db.prepare('UPDATE auth_api_keys SET last_used_at = ? WHERE id = ?').run(now.toISOString(), row.id);
    }
    return row;
  }

  revoke(id: string): boolean {
    return this.db.prepare('UPDATE auth_api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.now().toISOString(), id).changes === 1;
  }
}
