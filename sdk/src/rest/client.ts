import { SourceError, type SourceLogger } from '../types.js';
import { createAuthenticator, type Authenticator, type AuthSpec } from './auth.js';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, rateLimitResetDelay, sleep, type RetryPolicy } from './retry.js';

export type QueryValue = string | number | boolean | null | undefined;

export interface RestRequest {
  method?: string;
  /** query parameters added to the URL (null/undefined are skipped) */
  params?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** JSON body */
  json?: unknown;
}

export interface RestResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** the final URL, credentials in the query removed */
  url: string;
  body: T;
}

export interface RestClientOptions {
  baseUrl: string;
  auth?: AuthSpec | Authenticator;
  /** headers sent with every request */
  headers?: Record<string, string>;
  /** resolves environment variable names (SourceContext.secret) */
  secret?: (name: string) => string;
  /** the provider OAuth connection's access token (SourceContext.oauthToken), for `oauth2_token` auth */
  oauthToken?: () => Promise<{ accessToken: string }>;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  log?: SourceLogger;
  retry?: Partial<RetryPolicy>;
  /** waits between retries (tests pass a fast one) */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** per-request timeout in ms (default 60 s) */
  timeoutMs?: number;
  /**
   * Vendor error answers that are not 401/429: `auth` for bad credentials (Facebook's 400 with
   * OAuthException code 190), `rate_limit` for throttling (its code 17/80004), retried with backoff.
   */
  classifyError?: (status: number, body: string) => 'auth' | 'rate_limit' | null;
}

const EXCERPT = 500;

/** Strips the query string, so an api key in the URL never reaches a message. */
export function displayUrl(url: URL | string): string {
  const u = new URL(String(url));
  return `${u.origin}${u.pathname}`;
}

function isAuthenticator(a: AuthSpec | Authenticator): a is Authenticator {
  return typeof (a as Authenticator).apply === 'function';
}

/**
 * A JSON-over-HTTP client for sources: auth, retries with exponential backoff on 5xx and network
 * errors, 429 + Retry-After, one token refresh after a 401, and errors that say what to fix
 * without ever containing a secret.
 */
export class RestClient {
  readonly baseUrl: string;
  readonly auth: Authenticator;
  private readonly policy: RetryPolicy;
  private readonly fetchImpl: typeof fetch;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly opts: RestClientOptions) {
    this.baseUrl = opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`;
    this.fetchImpl = opts.fetch ?? globalThis.fetch;
    const secret = opts.secret ?? ((n: string) => {
      throw new SourceError('missing_secret', `No secret resolver for ${n}.`);
    });
    const auth = opts.auth ?? { kind: 'none' as const };
    this.auth = isAuthenticator(auth) ? auth : createAuthenticator(auth, { secret, fetch: this.fetchImpl, signal: opts.signal, oauthToken: opts.oauthToken });
    this.policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.wait = opts.sleep ?? sleep;
  }

  /** An absolute URL for a path relative to base_url (a leading `/` stays under base_url's path); absolute URLs pass through. */
  url(pathOrUrl: string, params?: Record<string, QueryValue>): URL {
    const u = /^https?:\/\//i.test(pathOrUrl) ? new URL(pathOrUrl) : new URL(pathOrUrl.replace(/^\/+/, ''), this.baseUrl);
    for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
    return u;
  }

  async get<T = unknown>(pathOrUrl: string, params?: Record<string, QueryValue>): Promise<RestResponse<T>> {
    return this.request<T>(pathOrUrl, { params });
  }

  async request<T = unknown>(pathOrUrl: string, req: RestRequest = {}): Promise<RestResponse<T>> {
    let method = req.method ?? 'GET';
    let refreshed = false;
    let target = pathOrUrl;
    let params = req.params;
    let redirects = 0;
    for (let attempt = 0; ; attempt++) {
      const url = this.url(target, params);
      const headers = new Headers({ accept: 'application/json', ...this.opts.headers, ...req.headers });
      if (req.json !== undefined) headers.set('content-type', 'application/json');
      await this.auth.apply(url, headers);
      const shown = displayUrl(url);
      let res: Response;
      let text: string;
      try {
        const signal = this.opts.timeoutMs === 0 ? this.opts.signal : anySignal(this.opts.signal, AbortSignal.timeout(this.opts.timeoutMs ?? 60_000));
        // redirects are followed here, and only on the same origin: credentials go with every request
        res = await this.fetchImpl(url, { method, headers, body: req.json !== undefined && method !== 'GET' ? JSON.stringify(req.json) : undefined, signal, redirect: 'manual' });
        text = await res.text();
      } catch (err) {
        if (this.opts.signal?.aborted) throw err;
        if (attempt >= this.policy.retries) {
          throw new SourceError('upstream_unreachable', `${method} ${shown} failed after ${attempt + 1} attempts: ${this.auth.redact(errorText(err))}`, { url: shown });
        }
        const delay = backoffDelay(this.policy, attempt);
        this.opts.log?.warn(`${method} ${shown} failed (${this.auth.redact(errorText(err))}); retrying in ${delay} ms`, { attempt: attempt + 1 });
        await this.wait(delay, this.opts.signal);
        continue;
      }
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (location) {
        const next = new URL(location, url);
        if (next.origin !== url.origin) {
          throw new SourceError('redirect_off_origin', `${method} ${shown} redirects to ${next.origin}; Basin does not send credentials to another host. Use that host in base_url if it is right.`, { url: shown, origin: next.origin });
        }
        if (++redirects > 5) throw new SourceError('too_many_redirects', `${method} ${shown}: more than 5 redirects.`, { url: shown });
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) method = 'GET';
        target = next.href;
        params = undefined;
        attempt--;
        continue;
      }
      if (res.status === 401 && !refreshed && this.auth.invalidate()) {
        refreshed = true; // an expired token: fetch a new one and try once more
        attempt--;
        continue;
      }
      if (res.ok) {
        return { status: res.status, headers: res.headers, url: url.href, body: parseBody<T>(text, res, shown, this.auth) };
      }
      const excerpt = this.auth.redact(text.slice(0, EXCERPT)).trim();
      const vendorKind = this.opts.classifyError?.(res.status, text) ?? null;
      if (vendorKind === 'auth') {
        const excerpt = this.auth.redact(text.slice(0, EXCERPT)).trim();
        throw new SourceError('unauthorized', `${method} ${shown} answered ${res.status}; check ${this.auth.hint()}.${excerpt ? ` Response: ${excerpt}` : ''}`, { status: res.status, url: shown });
      }
      // a vendor's own rate-limit headers (GitHub answers 403 with x-ratelimit-remaining: 0)
      // or a secondary limit, 403 with Retry-After
      const rateWait =
        res.status === 403 || res.status === 429
          ? (rateLimitResetDelay(res.headers) ?? (res.status === 403 ? parseRetryAfter(res.headers.get('retry-after')) : null))
          : vendorKind === 'rate_limit'
            ? (parseRetryAfter(res.headers.get('retry-after')) ?? backoffDelay(this.policy, attempt))
            : null;
      if ((res.status === 401 || res.status === 403) && rateWait === null) {
        throw new SourceError('unauthorized', `${method} ${shown} answered ${res.status} ${res.statusText || ''}`.trim() + `; check ${this.auth.hint()}.${excerpt ? ` Response: ${excerpt}` : ''}`, { status: res.status, url: shown });
      }
      if ((isRetryableStatus(res.status) || rateWait !== null) && attempt < this.policy.retries) {
        const after = parseRetryAfter(res.headers.get('retry-after')) ?? rateWait;
        if (after !== null && after > this.policy.maxRetryAfterMs) {
          throw new SourceError('rate_limited', `${method} ${shown} answered ${res.status} and asks to wait ${Math.round(after / 1000)} s, longer than ${Math.round(this.policy.maxRetryAfterMs / 1000)} s.`, { status: res.status, url: shown });
        }
        const delay = after ?? backoffDelay(this.policy, attempt);
        this.opts.log?.warn(`${method} ${shown} answered ${res.status}; retrying in ${delay} ms`, { attempt: attempt + 1, status: res.status });
        await this.wait(delay, this.opts.signal);
        continue;
      }
      const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
      throw new SourceError(
        res.status === 429 || rateWait !== null ? 'rate_limited' : res.status >= 500 ? 'upstream_error' : 'http_error',
        `${method} ${shown} answered ${res.status}${tries}.${excerpt ? ` Last response: ${excerpt}` : ''}`,
        { status: res.status, url: shown },
      );
    }
  }
}

function parseBody<T>(text: string, res: Response, shown: string, auth: Authenticator): T {
  if (text === '') return null as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    const type = res.headers.get('content-type') ?? 'unknown content type';
    throw new SourceError('invalid_response', `${shown} did not answer JSON (${type}): ${auth.redact(text.slice(0, 200))}`, { url: shown });
  }
}

function errorText(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause?.code ? `${e.message} (${e.cause.code})` : e.message;
}

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal {
  const list = signals.filter((s): s is AbortSignal => !!s);
  return list.length === 1 ? list[0]! : AbortSignal.any(list);
}
