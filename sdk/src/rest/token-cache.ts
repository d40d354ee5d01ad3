import type { Authenticator } from './auth.js';

/** What a token endpoint answered: the access token and its lifetime in seconds (default one hour). */
export interface FetchedToken {
  value: string;
  expiresInSeconds?: number;
}

/**
 * An authenticator that sends a fetched bearer token: one fetch at a time, the token reused until
 * shortly before it expires (a minute early, or at half-life for short tokens), fetched again after a
 * 401 (`invalidate`). Shared by the client-credentials and the Google service-account grants.
 */
export function cachedBearerToken(
  kind: 'oauth2_client_credentials' | 'google_service_account',
  fetchToken: () => Promise<FetchedToken>,
  o: { now: () => number; hint: () => string; redact: (t: string) => string },
): Authenticator {
  let token: { value: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;
  const refresh = async (): Promise<string> => {
    const t = await fetchToken();
    const ttl = Number(t.expiresInSeconds ?? 3600);
    token = { value: t.value, expiresAt: o.now() + Math.max(0, ttl - Math.min(60, ttl / 2)) * 1000 };
    return t.value;
  };
  return {
    kind,
    async apply(_u, h) {
      let value = token && token.expiresAt > o.now() ? token.value : null;
      if (!value) {
        pending ??= refresh().finally(() => (pending = null));
        value = await pending;
      }
      h.set('Authorization', `Bearer ${value}`);
    },
    invalidate() {
      const had = token !== null;
      token = null;
      return had;
    },
    hint: o.hint,
    redact: o.redact,
  };
}
