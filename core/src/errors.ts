/**
 * One error type for the whole platform. Every error that reaches a client is rendered as
 * {"error": {"code", "message", "details"?}} (DECISIONS §2); codes are stable snake_case strings.
 */
export class BasinError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(status: number, code: string, message: string, details?: unknown, headers?: Record<string, string>) {
    super(message);
    this.name = 'BasinError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  toBody(): { error: { code: string; message: string; details?: unknown } } {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }
}

export const isBasinError = (e: unknown): e is BasinError => e instanceof BasinError;

/**
 * Shorthands that predate the error catalogues (`defineErrors`, `coreErrors`): they still build the same
 * bodies, for code not moved to a catalogue yet. New codes go in the package's catalogue.
 */
export const errors = {
  badRequest: (message: string, details?: unknown, code = 'bad_request') => new BasinError(400, code, message, details),
  notAuthenticated: (message = 'Authentication required: log in or send an API key as "Authorization: Bearer <key>".') =>
    new BasinError(401, 'not_authenticated', message),
  forbidden: (permission: string) =>
    new BasinError(403, 'forbidden', `This action needs the "${permission}" permission; ask an admin for a role that has it.`, { permission }),
  notFound: (what: string, details?: unknown) => new BasinError(404, 'not_found', `${what} was not found.`, details),
  conflict: (code: string, message: string, details?: unknown) => new BasinError(409, code, message, details),
  tooLarge: (message: string, details?: unknown) => new BasinError(413, 'payload_too_large', message, details),
  validation: (message: string, details: Array<{ path: string; message: string }>) =>
    new BasinError(422, 'validation_failed', message, details),
  rateLimited: (retryAfterSeconds: number, code = 'rate_limited', message = 'Too many requests; retry later.') =>
    new BasinError(429, code, message, { retry_after_seconds: retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) }),
  notImplemented: (message: string, details?: unknown) => new BasinError(501, 'not_implemented', message, details),
  upstream: (service: string, message?: string) =>
    new BasinError(502, 'upstream_unavailable', message ?? `${service} is not reachable; check that it is installed and running.`, { service }),
  internal: (message = 'Internal server error; see the server log for details.') => new BasinError(500, 'internal_error', message),
};
