/** Retry policy for HTTP calls: exponential backoff with jitter; Retry-After wins when given. */
export interface RetryPolicy {
  /** attempts after the first (default 5) */
  retries: number;
  /** first backoff in ms (default 500), doubled each attempt */
  baseDelayMs: number;
  /** cap of one backoff (default 30 s) */
  maxDelayMs: number;
  /** longest Retry-After honoured (default 5 min); longer fails at once */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 300_000 };

export function backoffDelay(policy: RetryPolicy, attempt: number, random = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exp / 2 + (random() * exp) / 2); // "equal jitter"
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unparsable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Statuses worth retrying: 429, 408 and 5xx except 501/505. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status !== 501 && status !== 505);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Milliseconds until a vendor's rate-limit window resets, from `x-ratelimit-remaining: 0` with
 * `x-ratelimit-reset` (epoch seconds as GitHub sends it, or seconds to wait); null otherwise.
 */
export function rateLimitResetDelay(headers: Headers, now = Date.now()): number | null {
  if (headers.get('x-ratelimit-remaining')?.trim() !== '0') return null;
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (!Number.isFinite(reset) || reset < 0) return null;
  return reset > 1e9 ? Math.max(0, reset * 1000 - now) : Math.round(reset * 1000);
}
