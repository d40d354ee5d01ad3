import { SourceError } from './types.js';

/**
 * Provider OAuth for sources: the platform runs the authorization-code flow (PKCE, state), keeps the
 * tokens encrypted and refreshes them; a source only asks for a current token through
 * `ctx.oauthToken()` at sync time and never sees the store.
 */

/** How an `authKind: 'oauth2'` source type's provider is reached; a project may override any field. */
export interface OAuthProviderManifest {
  /** the provider's authorization endpoint (the browser is sent here) */
  authorizationUrl: string;
  /** the token endpoint (code exchange and refresh) */
  tokenUrl: string;
  /** scopes asked for */
  scopes: string[];
  /** environment variables holding the OAuth client's id and secret */
  clientIdEnv: string;
  clientSecretEnv: string;
  /** extra query parameters for the authorization request (e.g. Google's access_type=offline, prompt=consent) */
  authorizationParams?: Record<string, string>;
  /** an endpoint answering the connected account (e-mail or name) for display, called with the access token */
  userinfoUrl?: string;
  /** how the client authenticates at the token endpoint (default: client_secret_post) */
  tokenAuth?: 'client_secret_post' | 'client_secret_basic';
}

/** A provider OAuth connection's current access token. */
export interface OAuthToken {
  accessToken: string;
  tokenType: string;
  /** ISO time the access token expires, when the provider said */
  expiresAt: string | null;
  scopes: string[];
  /** the connected account, when known (for messages, never for auth) */
  account: string | null;
}

/** what a context without a connection answers: a clear error naming where to connect */
export function notConnected(sourceType: string): () => Promise<OAuthToken> {
  return async () => {
    throw new SourceError('oauth_not_connected', `No OAuth connection for "${sourceType}": an admin connects it at /oauth/connect/${sourceType} (Settings, Secrets).`, { source_type: sourceType });
  };
}
