import { SourceError } from '@basin/sdk';
import type { ProviderCredentials, ResolvedProvider } from './provider.js';

/** What a token endpoint answered, normalised. */
export interface TokenGrant {
  accessToken: string;
  refreshToken: string | null;
  tokenType: string;
  expiresIn: number | null;
  scopes: string[] | null;
  idToken: string | null;
}

/**
 * POSTs a grant (authorization_code or refresh_token) to the provider's token endpoint with the client's
 * credentials (RFC 6749 §4.1.3, §6). Errors name the provider's error code, never a token.
 */
export async function requestToken(p: ResolvedProvider, c: ProviderCredentials, grant: Record<string, string>, fetchImpl: typeof fetch = fetch): Promise<TokenGrant> {
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (p.tokenAuth === 'client_secret_basic') {
    const enc = (s: string) => encodeURIComponent(s);
    headers.authorization = `Basic ${Buffer.from(`${enc(c.clientId)}:${enc(c.clientSecret)}`).toString('base64')}`;
  } else {
    body.set('client_id', c.clientId);
    body.set('client_secret', c.clientSecret);
  }
  let res: Response;
  try {
    res = await fetchImpl(p.tokenUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw new SourceError('oauth_token_failed', `Could not reach the ${p.sourceType} token endpoint ${new URL(p.tokenUrl).origin}: ${(e as Error).message}`);
  }
  let json: Record<string, unknown> = {};
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    /* handled below */
  }
  if (!res.ok || typeof json.access_token !== 'string') {
    const code = typeof json.error === 'string' ? json.error : `http_${res.status}`;
    const desc = typeof json.error_description === 'string' ? `: ${json.error_description.slice(0, 200)}` : '';
    throw new SourceError(code === 'invalid_grant' ? 'oauth_grant_rejected' : 'oauth_token_failed', `The ${p.sourceType} token endpoint refused the ${grant.grant_type} grant (${code}${desc}).`, { provider_error: code });
  }
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : null,
    tokenType: typeof json.token_type === 'string' ? json.token_type : 'Bearer',
    expiresIn: typeof json.expires_in === 'number' ? json.expires_in : typeof json.expires_in === 'string' ? Number(json.expires_in) || null : null,
    scopes: typeof json.scope === 'string' ? json.scope.split(/[ ,]+/).filter(Boolean) : null,
    idToken: typeof json.id_token === 'string' ? json.id_token : null,
  };
}

/** the connected account for display: userinfo when the provider has one, else the ID token's claims */
export async function accountOf(p: ResolvedProvider, g: TokenGrant, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  const pick = (c: Record<string, unknown>) => [c.email, c.name, c.login, c.sub].find((v): v is string => typeof v === 'string' && v.length > 0) ?? null;
  if (p.userinfoUrl) {
    try {
      const res = await fetchImpl(p.userinfoUrl, { headers: { authorization: `Bearer ${g.accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
      if (res.ok) return pick((await res.json()) as Record<string, unknown>);
    } catch {
      /* the account is only for display */
    }
  }
  if (g.idToken) {
    try {
      return pick(JSON.parse(Buffer.from(g.idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>);
    } catch {
      /* not a JWT */
    }
  }
  return null;
}
