import type * as Oidc from 'openid-client';

// the OpenID client is loaded when a provider is first used, not at start-up
let client: Promise<typeof Oidc> | null = null;
const loadOidc = () => (client ??= import('openid-client'));
import { errors } from '@basin/core';
import type { AuthSection } from './config.js';
import { authErrors } from './errors.js';

/** well-known issuers so `auth.oauth_providers.google` works with only a client id and secret */
const KNOWN_ISSUERS: Record<string, string> = {
  google: 'https://accounts.google.com',
  microsoft: 'https://login.microsoftonline.com/common/v2.0',
  gitlab: 'https://gitlab.com',
};
const PENDING_TTL_MS = 10 * 60_000;

interface Pending {
  provider: string;
  verifier: string;
  nonce: string;
  redirectUri: string;
  expires: number;
}

export interface OidcIdentity {
  subject: string;
  email: string;
  name: string | null;
}

const isLoopbackHost = (h: string) => h === 'localhost' || h === '[::1]' || h === '::1' || h.startsWith('127.');

/**
 * OAuth login through OpenID Connect discovery (authorization code + PKCE S256 + state + nonce).
 * Pending logins are kept in memory for 10 minutes; the state is also bound to the browser by a cookie.
 */
export class OidcLogin {
  private readonly configs = new Map<string, Promise<Oidc.Configuration>>();
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly providers: () => AuthSection['oauth_providers']) {}

  list(): Array<{ name: string; display_name: string }> {
    return Object.entries(this.providers()).map(([name, p]) => ({ name, display_name: p.display_name ?? name }));
  }

  /** the provider's authorization URL and the state to bind to the browser */
  async begin(provider: string, redirectUri: string): Promise<{ url: string; state: string }> {
    const config = await this.configFor(provider);
    const oidc = await loadOidc();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    this.sweep();
    this.pending.set(state, { provider, verifier, nonce, redirectUri, expires: Date.now() + PENDING_TTL_MS });
    const p = this.providers()[provider]!;
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: (p.scopes ?? ['openid', 'email', 'profile']).join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /**
   * Checks state (present, known, same provider, same browser) and exchanges the code with the PKCE
   * verifier. Throws `OAuthRefused` with a short reason for the login page.
   */
  async complete(provider: string, currentUrl: URL, browserState: string | undefined): Promise<OidcIdentity> {
    const state = currentUrl.searchParams.get('state') ?? '';
    const pending = this.pending.get(state);
    if (!state || !pending || pending.provider !== provider || pending.expires < Date.now() || browserState !== state) throw new OAuthRefused('invalid_state');
    this.pending.delete(state); // single use
    if (currentUrl.searchParams.get('error')) throw new OAuthRefused('provider_denied');
    const config = await this.configFor(provider);
    const oidc = await loadOidc();
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: pending.verifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true }, { redirect_uri: pending.redirectUri });
    } catch {
      throw new OAuthRefused('exchange_failed');
    }
    const claims = tokens.claims();
    if (!claims) throw new OAuthRefused('no_id_token');
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified;
    let name = typeof claims.name === 'string' ? claims.name : null;
    if (!email) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => undefined);
      email = info?.email;
      verified = info?.email_verified;
      name ??= info?.name ?? null;
    }
    if (!email) throw new OAuthRefused('no_email');
    if (verified === false) throw new OAuthRefused('email_not_verified');
    return { subject: claims.sub, email, name };
  }

  private configFor(provider: string): Promise<Oidc.Configuration> {
    const p = this.providers()[provider];
    if (!p) throw errors.notFound(`OAuth provider ${provider}`);
    const issuer = p.issuer ?? KNOWN_ISSUERS[provider];
    if (!issuer) throw authErrors.oauth_not_configured({ provider });
    let c = this.configs.get(provider);
    if (!c) {
      const url = new URL(issuer);
      // plain http only for a provider on this machine (tests, a local IdP)
      const insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname);
      c = loadOidc().then((oidc) => oidc.discovery(url, p.client_id, p.client_secret, undefined, insecure ? { execute: [oidc.allowInsecureRequests] } : undefined));
      c.catch(() => this.configs.delete(provider)); // retry discovery next time
      this.configs.set(provider, c);
    }
    return c.catch((e: Error) => {
      throw errors.upstream(`OAuth provider ${provider}`, `Could not reach the identity provider ${provider}: ${e.message}`);
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [k, v] of this.pending) if (v.expires < now) this.pending.delete(k);
  }
}

export class OAuthRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
