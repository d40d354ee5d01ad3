import crypto from 'node:crypto';
import { BasinError, type Clock, type Principal } from '@basin/core';
import type { OAuthConnections } from './connections.js';
import { accountOf, requestToken } from './token-endpoint.js';
import type { OAuthTokenStore } from './token-store.js';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const random = () => crypto.randomBytes(32).toString('base64url');

/** constant-time equality of two strings of any length */
function same(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb) && a === b;
}

/** a refused callback: the code goes back to the settings page, never a token */
export class ConnectError extends BasinError {
  constructor(code: string, message: string) {
    super(400, code, message);
  }
}

/**
 * The authorization-code flow with PKCE (S256) for a source type's provider. The `state` sent to the
 * provider is random, stored hashed, expires, works once, and is bound both to the Basin session that
 * started the flow and to a cookie set on that browser: a callback from another session or browser,
 * or a replayed one, is refused.
 */
export class ConnectFlow {
  constructor(
    private readonly connections: OAuthConnections,
    private readonly store: OAuthTokenStore,
    private readonly clock: Clock,
    private readonly ttlSeconds: () => number,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** the provider's authorization URL and the browser-binding value to set as a cookie */
  begin(type: string, principal: Principal | null, redirectUri: string): { url: string; binding: string; maxAge: number } {
    const { provider, credentials } = this.connections.resolve(type);
    if (principal?.kind === 'api_key') throw new BasinError(400, 'oauth_needs_session', 'Connect a provider from a browser session (Settings, Secrets), not with an API key: the provider sends the browser back here.');
    const state = random();
    const verifier = random();
    const binding = random();
    const now = this.clock.now();
    this.store.addPending(
      sha256(state),
      {
        source_type: type,
        user_id: principal?.userId ?? null,
        session_id: principal?.sessionId ?? null,
        binding_hash: sha256(binding),
        verifier,
        redirect_uri: redirectUri,
        expires_at: new Date(now.getTime() + this.ttlSeconds() * 1000).toISOString(),
      },
      now.toISOString(),
    );
    const url = new URL(provider.authorizationUrl);
    const params: Record<string, string> = {
      ...provider.authorizationParams,
      response_type: 'code',
      client_id: credentials.clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    if (provider.scopes.length) params.scope = provider.scopes.join(' ');
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return { url: url.href, binding, maxAge: this.ttlSeconds() };
  }

  /** checks the callback against its pending state, exchanges the code and keeps the tokens */
  async complete(type: string, q: { code?: string; state?: string; error?: string }, principal: Principal | null, binding: string | undefined) {
    if (!q.state) throw new ConnectError('oauth_state_missing', 'The provider came back without a state; start again from Settings, Secrets.');
    // taken out first: a state works once, whether this callback succeeds or not
    const pending = this.store.takePending(sha256(q.state));
    if (!pending || pending.source_type !== type) throw new ConnectError('oauth_state_invalid', 'This connection link is unknown or was already used; start again from Settings, Secrets.');
    if (Date.parse(pending.expires_at) <= this.clock.now().getTime()) throw new ConnectError('oauth_state_expired', 'The connection took too long and expired; start again from Settings, Secrets.');
    if (!same(pending.session_id ?? '', principal?.sessionId ?? '') || !same(pending.user_id ?? '', principal?.userId ?? '') || !binding || !same(sha256(binding), pending.binding_hash)) {
      throw new ConnectError('oauth_session_mismatch', 'This connection was started by another session or browser; start it again from your own session.');
    }
    if (q.error) throw new ConnectError('oauth_denied', `The provider did not grant access (${q.error.slice(0, 100)}).`);
    if (!q.code) throw new ConnectError('oauth_code_missing', 'The provider came back without an authorization code; start again.');
    const { provider, credentials } = this.connections.resolve(type);
    const grant = await requestToken(provider, credentials, { grant_type: 'authorization_code', code: q.code, redirect_uri: pending.redirect_uri, code_verifier: pending.verifier }, this.fetchImpl);
    const account = await accountOf(provider, grant, this.fetchImpl);
    return this.connections.save(type, grant, provider.scopes, account, principal?.email ?? null);
  }
}
