import { defineErrors } from './error-catalogue.js';

/** Core's codes: what the HTTP layer itself answers (framework errors, authentication, the guard). */
export const coreErrors = defineErrors('core', {
  bad_request: { status: 400, message: (a: { reason?: string }) => a.reason ?? 'The request is malformed.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  not_authenticated: {
    status: 401,
    message: (a: { reason?: string }) => a.reason ?? 'Authentication required: log in or send an API key as "Authorization: Bearer <key>".',
  },
  '2fa_setup_required': { status: 403, message: 'Two-factor authentication must be set up first (POST /api/auth/2fa/setup).' },
  password_change_required: { status: 403, message: 'Your password has expired; change it first (POST /api/auth/change-password).' },
  csrf_rejected: {
    status: 403,
    message: (a: { reason?: string }) => a.reason ?? 'Cross-site request refused: send the header "X-Requested-With: XMLHttpRequest" or use an API key.',
  },
  forbidden: { status: 403, message: (a: { permission: string }) => `This action needs the "${a.permission}" permission; ask an admin for a role that has it.` },
  not_found: { status: 404, message: (a: { what?: string; route?: string }) => (a.route ? `No route ${a.route}.` : `${a.what ?? 'The resource'} was not found.`) },
  method_not_allowed: { status: 405, message: (a: { method: string; allow: string[] }) => `${a.method} is not allowed here; use ${a.allow.join(', ')}.` },
  request_timeout: { status: 408, message: 'The request took too long to arrive; send it again.' },
  not_running: { status: 409, message: (a: { reason?: string }) => a.reason ?? 'That job is not queued or running.' },
  payload_too_large: { status: 413, message: (a: { reason?: string }) => a.reason ?? 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Unsupported content type; send application/json.' },
  validation_failed: { status: 422, message: (a: { fields: string }) => `The request is invalid: ${a.fields}.` },
  rate_limited: { status: 429, message: 'Too many requests; retry later.' },
  headers_too_large: { status: 431, message: 'The request headers are too large; send fewer or shorter headers (cookies included).' },
  internal_error: { status: 500, message: 'Internal server error; see the server log for details.' },
  not_implemented: { status: 501, message: 'Not implemented.' },
  upstream_unavailable: { status: 502, message: (a: { service: string }) => `${a.service} is not reachable; check that it is installed and running.` },
});
