import { migrate, openEnvValue, sealEnvValue, type SqliteDb } from '@basin/core';

/** One source type's provider OAuth connection, as kept (tokens sealed). */
export interface StoredConnection {
  source_type: string;
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  scopes: string[];
  expires_at: string | null;
  account: string | null;
  connected_by: string | null;
  connected_at: string;
  refreshed_at: string | null;
}

/** A pending connection: the state sent to the provider, bound to the session that started it. */
export interface PendingConnection {
  source_type: string;
  user_id: string | null;
  session_id: string | null;
  /** sha256 of the browser-binding cookie */
  binding_hash: string;
  verifier: string;
  redirect_uri: string;
  expires_at: string;
}

interface Row extends Omit<StoredConnection, 'scopes'> {
  scopes: string;
}

/**
 * Provider OAuth connections in state.db. Access and refresh tokens are sealed (AES-256-GCM) with the
 * project's secret key before they are written; the PKCE verifier of a pending connection too. A
 * pending state is deleted when it is used, so it works once.
 */
export class OAuthTokenStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly keys: () => Buffer[],
  ) {
    migrate(db, 'secrets_oauth', [
      `CREATE TABLE oauth_connections (
        source_type TEXT PRIMARY KEY, access_token TEXT NOT NULL, refresh_token TEXT, token_type TEXT NOT NULL,
        scopes TEXT NOT NULL, expires_at TEXT, account TEXT, connected_by TEXT, connected_at TEXT NOT NULL, refreshed_at TEXT)`,
      `CREATE TABLE oauth_pending (
        state_hash TEXT PRIMARY KEY, source_type TEXT NOT NULL, user_id TEXT, session_id TEXT, binding_hash TEXT NOT NULL,
        verifier TEXT NOT NULL, redirect_uri TEXT NOT NULL, expires_at TEXT NOT NULL)`,
    ]);
  }

  private seal(v: string): string {
    return sealEnvValue(v, this.keys()[0]!);
  }

  private open(what: string, v: string): string {
    return openEnvValue(what, v, this.keys());
  }

  get(sourceType: string): StoredConnection | undefined {
    const r = this.db.prepare('SELECT * FROM oauth_connections WHERE source_type = ?').get(sourceType) as Row | undefined;
    if (!r) return undefined;
    return {
      ...r,
      access_token: this.open(`the ${sourceType} access token`, r.access_token),
      refresh_token: r.refresh_token ? this.open(`the ${sourceType} refresh token`, r.refresh_token) : null,
      scopes: JSON.parse(r.scopes) as string[],
    };
  }

  /** status rows without opening any token */
  list(): Array<Omit<StoredConnection, 'access_token' | 'refresh_token'> & { has_refresh_token: boolean }> {
    const rows = this.db.prepare('SELECT * FROM oauth_connections ORDER BY source_type').all() as Row[];
    return rows.map(({ access_token: _a, refresh_token, scopes, ...r }) => ({ ...r, scopes: JSON.parse(scopes) as string[], has_refresh_token: !!refresh_token }));
  }

  put(c: StoredConnection): void {
    this.db
      .prepare(
        `INSERT INTO oauth_connections (source_type, access_token, refresh_token, token_type, scopes, expires_at, account, connected_by, connected_at, refreshed_at)
         VALUES (@source_type, @access_token, @refresh_token, @token_type, @scopes, @expires_at, @account, @connected_by, @connected_at, @refreshed_at)
         ON CONFLICT (source_type) DO UPDATE SET access_token = excluded.access_token, refresh_token = excluded.refresh_token, token_type = excluded.token_type,
           scopes = excluded.scopes, expires_at = excluded.expires_at, account = excluded.account, connected_by = excluded.connected_by,
           connected_at = excluded.connected_at, refreshed_at = excluded.refreshed_at`,
      )
      .run({ ...c, access_token: this.seal(c.access_token), refresh_token: c.refresh_token ? this.seal(c.refresh_token) : null, scopes: JSON.stringify(c.scopes) });
  }

  /** re-seals every stored token with the first of `keys` (opening with any of them): a key rotation */
  reseal(keys: Buffer[]): number {
    const rows = this.db.prepare('SELECT source_type, access_token, refresh_token FROM oauth_connections').all() as Array<{ source_type: string; access_token: string; refresh_token: string | null }>;
    const update = this.db.prepare('UPDATE oauth_connections SET access_token = ?, refresh_token = ? WHERE source_type = ?');
    this.db.transaction(() => {
      for (const r of rows) {
        const re = (v: string) => sealEnvValue(openEnvValue(`the ${r.source_type} token`, v, keys), keys[0]!);
        update.run(re(r.access_token), r.refresh_token ? re(r.refresh_token) : null, r.source_type);
      }
    })();
    return rows.length;
  }

  delete(sourceType: string): boolean {
    return this.db.prepare('DELETE FROM oauth_connections WHERE source_type = ?').run(sourceType).changes > 0;
  }

  addPending(stateHash: string, p: PendingConnection, now: string): void {
    this.db.prepare('DELETE FROM oauth_pending WHERE expires_at <= ?').run(now);
    this.db
      .prepare('INSERT INTO oauth_pending (state_hash, source_type, user_id, session_id, binding_hash, verifier, redirect_uri, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(stateHash, p.source_type, p.user_id, p.session_id, p.binding_hash, this.seal(p.verifier), p.redirect_uri, p.expires_at);
  }

  /** takes a pending state out (whatever happens next, it cannot be used again) */
  takePending(stateHash: string): PendingConnection | undefined {
    const r = this.db.prepare('DELETE FROM oauth_pending WHERE state_hash = ? RETURNING *').get(stateHash) as PendingConnection | undefined;
    return r ? { ...r, verifier: this.open('a pending OAuth verifier', r.verifier) } : undefined;
  }
}
