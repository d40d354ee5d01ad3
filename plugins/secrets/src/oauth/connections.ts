import { BasinError, errors, type Clock } from '@basin/core';
import type { SourceRegistry, SourceOAuthTokens } from '@basin/plugin-sources/contract';
import { SourceError, type OAuthToken } from '@basin/sdk';
import type { OAuthSection } from './config.js';
import { isOAuthType, providerFor, resolveProvider, type ProviderCredentials, type ResolvedProvider } from './provider.js';
import { requestToken, type TokenGrant } from './token-endpoint.js';
import type { OAuthTokenStore, StoredConnection } from './token-store.js';

export interface OAuthDeps {
  store: OAuthTokenStore;
  registry: () => SourceRegistry | undefined;
  section: () => OAuthSection;
  env: (name: string) => string | undefined;
  clock: Clock;
  fetch?: typeof fetch;
}

/** GET /api/secrets/oauth: one entry per OAuth source type (and any stored connection) */
export interface OAuthStatus {
  source_type: string;
  connected: boolean;
  account: string | null;
  scopes: string[];
  expires_at: string | null;
  /** ok, expiring (inside the refresh margin), expired (and no refresh token), or not_connected */
  state: 'ok' | 'expiring' | 'expired' | 'not_connected';
  can_refresh: boolean;
  connected_at: string | null;
  refreshed_at: string | null;
  /** the client id/secret variables are set and the endpoints known */
  configured: boolean;
  connect_url: string;
}

/**
 * Stored provider OAuth connections: the token a source gets at sync time (refreshed first when it
 * has less than `refresh_margin_seconds` left; concurrent syncs share one refresh), status and
 * disconnect. It is the `sourceOAuthRef` service the sync engine reads through.
 */
export class OAuthConnections implements SourceOAuthTokens {
  private readonly refreshing = new Map<string, Promise<StoredConnection>>();

  constructor(private readonly d: OAuthDeps) {}

  resolve(type: string): { provider: ResolvedProvider; credentials: ProviderCredentials } {
    return resolveProvider(type, this.d.registry()?.get(type), this.d.section(), this.d.env);
  }

  /** keeps a grant from the code exchange */
  save(type: string, g: TokenGrant, requestedScopes: string[], account: string | null, by: string | null): StoredConnection {
    const now = this.d.clock.now();
    const c: StoredConnection = {
      source_type: type,
      access_token: g.accessToken,
      refresh_token: g.refreshToken,
      token_type: g.tokenType,
      scopes: g.scopes ?? requestedScopes,
      expires_at: g.expiresIn ? new Date(now.getTime() + g.expiresIn * 1000).toISOString() : null,
      account,
      connected_by: by,
      connected_at: now.toISOString(),
      refreshed_at: null,
    };
    this.d.store.put(c);
    return c;
  }

  async token(type: string): Promise<OAuthToken> {
    let c = this.d.store.get(type);
    if (!c) throw new SourceError('oauth_not_connected', `No OAuth connection for "${type}": an admin connects it at /oauth/connect/${type} (Settings, Secrets).`, { source_type: type });
    if (this.needsRefresh(c)) c = await this.refresh(c);
    return { accessToken: c.access_token, tokenType: c.token_type, expiresAt: c.expires_at, scopes: c.scopes, account: c.account };
  }

  /**
   * Refreshes every connection inside the refresh margin (run every minute while the server runs), so
   * tokens stay fresh between syncs and a revoked grant shows up in the status before a sync needs it.
   * Returns the source types refreshed; failures are returned, not thrown (they name no token).
   */
  async refreshDue(): Promise<{ refreshed: string[]; failed: Array<{ source_type: string; error: string }> }> {
    const refreshed: string[] = [];
    const failed: Array<{ source_type: string; error: string }> = [];
    for (const row of this.d.store.list()) {
      if (!row.has_refresh_token) continue;
      const c = this.d.store.get(row.source_type);
      if (!c || !this.needsRefresh(c)) continue;
      try {
        await this.refresh(c);
        refreshed.push(row.source_type);
      } catch (e) {
        failed.push({ source_type: row.source_type, error: (e as Error).message });
      }
    }
    return { refreshed, failed };
  }

  private needsRefresh(c: StoredConnection): boolean {
    if (!c.expires_at) return false;
    return Date.parse(c.expires_at) - this.d.clock.now().getTime() <= this.d.section().refresh_margin_seconds * 1000;
  }

  private refresh(c: StoredConnection): Promise<StoredConnection> {
    const running = this.refreshing.get(c.source_type);
    if (running) return running;
    const p = this.doRefresh(c).finally(() => this.refreshing.delete(c.source_type));
    this.refreshing.set(c.source_type, p);
    return p;
  }

  private async doRefresh(c: StoredConnection): Promise<StoredConnection> {
    const now = this.d.clock.now();
    const expired = !!c.expires_at && Date.parse(c.expires_at) <= now.getTime();
    if (!c.refresh_token) {
      if (!expired) return c;
      throw new SourceError('oauth_expired', `The ${c.source_type} OAuth token expired and the provider gave no refresh token; reconnect at /oauth/connect/${c.source_type}.`, { source_type: c.source_type });
    }
    let resolved: ReturnType<OAuthConnections['resolve']>;
    try {
      resolved = this.resolve(c.source_type);
    } catch (e) {
      throw new SourceError('oauth_refresh_failed', `Cannot refresh the ${c.source_type} token: ${(e as Error).message}`, { source_type: c.source_type });
    }
    const g = await requestToken(resolved.provider, resolved.credentials, { grant_type: 'refresh_token', refresh_token: c.refresh_token }, this.d.fetch);
    const next: StoredConnection = {
      ...c,
      access_token: g.accessToken,
      // a provider that rotates refresh tokens sends a new one; otherwise the old one stays valid
      refresh_token: g.refreshToken ?? c.refresh_token,
      token_type: g.tokenType,
      scopes: g.scopes ?? c.scopes,
      expires_at: g.expiresIn ? new Date(now.getTime() + g.expiresIn * 1000).toISOString() : null,
      refreshed_at: now.toISOString(),
    };
    this.d.store.put(next);
    return next;
  }

  status(): OAuthStatus[] {
    const reg = this.d.registry();
    const stored = new Map(this.d.store.list().map((r) => [r.source_type, r]));
    const types = new Set([...(reg?.all().filter((d) => isOAuthType(d)).map((d) => d.type) ?? []), ...stored.keys()]);
    const now = this.d.clock.now().getTime();
    const margin = this.d.section().refresh_margin_seconds * 1000;
    return [...types].sort().map((type) => {
      const s = stored.get(type);
      const p = providerFor(type, reg?.get(type), this.d.section());
      const configured = !!p.authorizationUrl && !!p.tokenUrl && !!this.d.env(p.clientIdEnv!) && !!this.d.env(p.clientSecretEnv!);
      const left = s?.expires_at ? Date.parse(s.expires_at) - now : Infinity;
      const state: OAuthStatus['state'] = !s ? 'not_connected' : left <= 0 && !s.has_refresh_token ? 'expired' : left <= margin ? 'expiring' : 'ok';
      return {
        source_type: type,
        connected: !!s,
        account: s?.account ?? null,
        scopes: s?.scopes ?? [],
        expires_at: s?.expires_at ?? null,
        state,
        can_refresh: !!s?.has_refresh_token,
        connected_at: s?.connected_at ?? null,
        refreshed_at: s?.refreshed_at ?? null,
        configured,
        connect_url: `/oauth/connect/${type}`,
      };
    });
  }

  disconnect(type: string): void {
    if (!this.d.store.delete(type)) throw errors.notFound(`An OAuth connection for "${type}"`);
  }
}

/** a SourceError from a token call, as the API's error (the message names no token) */
export function asApiError(e: unknown): BasinError {
  if (e instanceof BasinError) return e;
  if (e instanceof SourceError) return new BasinError(502, e.code, e.message, e.details);
  return new BasinError(500, 'internal_error', 'Internal error.');
}
