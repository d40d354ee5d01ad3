import { redactSecrets } from '../redact.js';
import { SourceError } from '../types.js';
import { googleServiceAccount } from './google-jwt.js';
import { cachedBearerToken, type FetchedToken } from './token-cache.js';

/** How a REST source authenticates; secrets are named by environment variable, never given inline. */
export type AuthSpec =
  | { kind: 'none' }
  | { kind: 'bearer'; tokenEnv: string; /** config field naming the variable, for error hints */ field?: string; /** header scheme (default Bearer) */ scheme?: string }
  | { kind: 'api_key'; name: string; location: 'header' | 'query'; keyEnv: string; field?: string; /** value prefix, e.g. `Token ` */ prefix?: string }
  | {
      kind: 'basic';
      usernameEnv: string;
      passwordEnv: string;
      usernameField?: string;
      passwordField?: string;
      /** a literal (non-secret) username instead of usernameEnv, e.g. Zendesk's `me@example.com/token` */
      username?: string;
      /** a literal (non-secret) password instead of passwordEnv, e.g. Freshdesk's `X` */
      password?: string;
    }
  | {
      kind: 'oauth2_client_credentials';
      tokenUrl: string;
      clientIdEnv: string;
      clientSecretEnv: string;
      scope?: string;
      /** where the token is in the answer (default `access_token`; Personio v1: `data.token`) */
      tokenPath?: string;
    }
  | { kind: 'custom_header'; name: string; valueEnv: string; field?: string }
  | OAuthTokenSpec
  | GoogleServiceAccountSpec;

/**
 * An OAuth 2.0 access token of a provider connection. Until the provider OAuth store lands, the
 * token is read from the environment variable `tokenEnv`; `resolveOAuthToken` is the one place to
 * switch to the credential hook.
 */
export interface OAuthTokenSpec {
  kind: 'oauth2_token';
  tokenEnv: string;
  field?: string;
  /** the provider (`google`, `facebook`, `shopify`...) named in hints */
  provider: string;
  /** header scheme (default Bearer); `header` overrides the header name (Shopify: X-Shopify-Access-Token, no scheme) */
  scheme?: string;
  header?: string;
}

/** A Google service account: its JSON key in the variable `credentialsEnv`, exchanged for an access token with a signed JWT (RFC 7523). */
export interface GoogleServiceAccountSpec {
  kind: 'google_service_account';
  credentialsEnv: string;
  field?: string;
  scopes: string[];
  /** overrides the key's token_uri (tests) */
  tokenUrl?: string;
}

export interface Authenticator {
  readonly kind: AuthSpec['kind'];
  /** adds credentials to an outgoing request */
  apply(url: URL, headers: Headers): Promise<void>;
  /** after a 401: drop cached tokens; true when a retry may succeed */
  invalidate(): boolean;
  /** which setting to fix after a 401/403, e.g. "the environment variable API_TOKEN (auth_token_env)" */
  hint(): string;
  /** replaces every secret value this authenticator handed out with *** */
  redact(text: string): string;
}

export interface AuthDeps {
  secret(name: string): string;
  fetch: typeof fetch;
  signal?: AbortSignal;
  now?: () => number;
  /** the provider OAuth connection's current access token (SourceContext.oauthToken) */
  oauthToken?: () => Promise<{ accessToken: string }>;
}

function envHint(...names: Array<[string, string]>): string {
  return names.map(([env, field]) => `the environment variable ${env} (${field})`).join(' and ');
}

/** Builds the authenticator of an AuthSpec; secrets are read lazily through `deps.secret`. */
export function createAuthenticator(spec: AuthSpec, deps: AuthDeps): Authenticator {
  const revealed = new Set<string>();
  const secret = (name: string) => {
    const v = deps.secret(name);
    if (v) revealed.add(v);
    return v;
  };
  // every encoding of every credential used so far (URL-encoded in a query, base64 in Basic, JSON-escaped)
  const redact = (text: string) => redactSecrets(text, revealed);
  switch (spec.kind) {
    case 'none':
      return { kind: 'none', apply: async () => {}, invalidate: () => false, hint: () => 'the API credentials (auth_type is none)', redact };
    case 'bearer':
      return {
        kind: 'bearer',
        apply: async (_u, h) => h.set('Authorization', `${spec.scheme ?? 'Bearer'} ${secret(spec.tokenEnv)}`),
        invalidate: () => false,
        hint: () => envHint([spec.tokenEnv, spec.field ?? 'auth_token_env']),
        redact,
      };
    case 'api_key':
      return {
        kind: 'api_key',
        apply: async (u, h) => {
          const v = secret(spec.keyEnv);
          if (spec.location === 'query') u.searchParams.set(spec.name, v);
          else h.set(spec.name, `${spec.prefix ?? ''}${v}`);
        },
        invalidate: () => false,
        hint: () => envHint([spec.keyEnv, spec.field ?? 'auth_token_env']),
        redact,
      };
    case 'basic':
      return {
        kind: 'basic',
        apply: async (_u, h) => {
          const pair = `${spec.username ?? secret(spec.usernameEnv)}:${spec.password ?? secret(spec.passwordEnv)}`;
          revealed.add(pair); // its base64 form is the token
          const token = Buffer.from(pair).toString('base64');
          h.set('Authorization', `Basic ${token}`);
        },
        invalidate: () => false,
        hint: () =>
          envHint(
            ...([
              spec.username === undefined ? [spec.usernameEnv, spec.usernameField ?? 'basic_username_env'] : null,
              spec.password === undefined ? [spec.passwordEnv, spec.passwordField ?? 'basic_password_env'] : null,
            ].filter((x): x is [string, string] => x !== null)),
          ),
        redact,
      };
    case 'custom_header':
      return {
        kind: 'custom_header',
        apply: async (_u, h) => h.set(spec.name, secret(spec.valueEnv)),
        invalidate: () => false,
        hint: () => envHint([spec.valueEnv, spec.field ?? 'auth_token_env']),
        redact,
      };
    case 'oauth2_client_credentials':
      return oauth2ClientCredentials(spec, deps, secret, redact, revealed);
    case 'oauth2_token':
      return {
        kind: 'oauth2_token',
        apply: async (_u, h) => {
          const token = await resolveOAuthToken(spec, secret, deps.oauthToken);
          revealed.add(token);
          if (spec.header) h.set(spec.header, token);
          else h.set('Authorization', `${spec.scheme ?? 'Bearer'} ${token}`);
        },
        invalidate: () => false,
        hint: () => `the ${spec.provider} OAuth access token in ${envHint([spec.tokenEnv, spec.field ?? 'access_token_env'])} (renew it if it expired)`,
        redact,
      };
    case 'google_service_account':
      return googleServiceAccount(spec, deps, secret, redact, revealed);
  }
}

/**
 * The access token of an OAuth connection: the environment variable the config names when it is set
 * (a token pasted by hand), else the provider connection Basin keeps (`/oauth/connect/{type}`,
 * refreshed before it expires), else the missing-variable error that says how to fix it.
 */
export async function resolveOAuthToken(spec: OAuthTokenSpec, secret: (name: string) => string, connection?: () => Promise<{ accessToken: string }>): Promise<string> {
  try {
    return secret(spec.tokenEnv);
  } catch (e) {
    if (!connection || !(e instanceof SourceError) || e.code !== 'missing_secret') throw e;
    try {
      return (await connection()).accessToken;
    } catch {
      throw e;
    }
  }
}

/** OAuth2 client-credentials grant: fetches a token, reuses it until shortly before it expires, refreshes after a 401. */
function oauth2ClientCredentials(
  spec: Extract<AuthSpec, { kind: 'oauth2_client_credentials' }>,
  deps: AuthDeps,
  secret: (n: string) => string,
  redact: (t: string) => string,
  revealed: Set<string>,
): Authenticator {
  const hint = () => envHint([spec.clientIdEnv, 'client_id_env'], [spec.clientSecretEnv, 'client_secret_env']);

  async function fetchToken(): Promise<FetchedToken> {
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: secret(spec.clientIdEnv), client_secret: secret(spec.clientSecretEnv) });
    if (spec.scope) body.set('scope', spec.scope);
    let res: Response;
    try {
      res = await deps.fetch(spec.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: deps.signal,
      });
    } catch (err) {
      throw new SourceError('oauth_token_failed', `Could not reach the token endpoint ${new URL(spec.tokenUrl).origin}: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      const code = res.status === 400 || res.status === 401 ? 'unauthorized' : 'oauth_token_failed';
      throw new SourceError(code, `The token endpoint answered ${res.status}; check ${hint()}. Response: ${redact(text).slice(0, 300)}`, { status: res.status });
    }
    let json: { access_token?: string; expires_in?: number | string };
    try {
      json = JSON.parse(text);
    } catch {
      throw new SourceError('oauth_token_failed', 'The token endpoint did not answer JSON.');
    }
    if (spec.tokenPath) json.access_token = spec.tokenPath.split('.').reduce<any>((v, k) => (v && typeof v === 'object' ? v[k] : undefined), json);
    if (!json.access_token) throw new SourceError('oauth_token_failed', 'The token endpoint answered without an access_token.');
    revealed.add(json.access_token);
    return { value: json.access_token, expiresInSeconds: json.expires_in === undefined ? undefined : Number(json.expires_in) };
  }

  return cachedBearerToken('oauth2_client_credentials', fetchToken, { now: deps.now ?? Date.now, hint, redact });
}
