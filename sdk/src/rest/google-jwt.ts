import { createSign } from 'node:crypto';
import { SourceError } from '../types.js';
import type { AuthDeps, Authenticator, GoogleServiceAccountSpec } from './auth.js';
import { cachedBearerToken, type FetchedToken } from './token-cache.js';

interface ServiceAccountKey {
  client_email?: string;
  private_key?: string;
  token_uri?: string;
}

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** The signed JWT assertion of the JWT-bearer grant (RFC 7523), as Google's OAuth server expects it. */
export function serviceAccountAssertion(key: { client_email: string; private_key: string }, scopes: string[], audience: string, nowSeconds: number): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iss: key.client_email, scope: scopes.join(' '), aud: audience, iat: nowSeconds, exp: nowSeconds + 3600 }));
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(key.private_key);
  return `${header}.${claims}.${b64url(signature)}`;
}

/** Google service-account auth: exchanges a signed JWT for an access token, reused until shortly before it expires. */
export function googleServiceAccount(
  spec: GoogleServiceAccountSpec,
  deps: AuthDeps,
  secret: (n: string) => string,
  redact: (t: string) => string,
  revealed: Set<string>,
): Authenticator {
  const now = deps.now ?? Date.now;
  const field = spec.field ?? 'credentials_env';
  const hint = () => `the service-account key JSON in the environment variable ${spec.credentialsEnv} (${field})`;

  function key(): Required<Pick<ServiceAccountKey, 'client_email' | 'private_key'>> & ServiceAccountKey {
    let parsed: ServiceAccountKey;
    try {
      parsed = JSON.parse(secret(spec.credentialsEnv)) as ServiceAccountKey;
    } catch (err) {
      if (err instanceof SourceError) throw err;
      throw new SourceError('invalid_credentials', `${hint()} is not JSON; paste the whole key file downloaded from the Google Cloud console.`);
    }
    if (!parsed.client_email || !parsed.private_key) throw new SourceError('invalid_credentials', `${hint()} lacks client_email or private_key; use a service-account key file.`);
    revealed.add(parsed.private_key);
    return parsed as ServiceAccountKey & { client_email: string; private_key: string };
  }

  async function fetchToken(): Promise<FetchedToken> {
    const k = key();
    const tokenUrl = spec.tokenUrl ?? k.token_uri ?? 'https://oauth2.googleapis.com/token';
    let assertion: string;
    try {
      assertion = serviceAccountAssertion(k, spec.scopes, tokenUrl, Math.floor(now() / 1000));
    } catch {
      throw new SourceError('invalid_credentials', `The private_key in ${hint()} cannot sign; download a new key.`);
    }
    revealed.add(assertion);
    let res: Response;
    try {
      res = await deps.fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
        signal: deps.signal,
      });
    } catch (err) {
      throw new SourceError('oauth_token_failed', `Could not reach the token endpoint ${new URL(tokenUrl).origin}: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new SourceError('unauthorized', `Google's token endpoint answered ${res.status}; check ${hint()}. Response: ${redact(text).slice(0, 300)}`, { status: res.status });
    const json = JSON.parse(text) as { access_token?: string; expires_in?: number };
    if (!json.access_token) throw new SourceError('oauth_token_failed', 'The token endpoint answered without an access_token.');
    revealed.add(json.access_token);
    return { value: json.access_token, expiresInSeconds: json.expires_in };
  }

  return cachedBearerToken('google_service_account', fetchToken, { now, hint, redact });
}
