import type { TSchema } from '@sinclair/typebox';
import type { CatalogedError } from '../error-catalogue.js';
import { coreErrors } from '../core-errors.js';
import type { RouteDocs } from './routes.js';

type Json = Record<string, unknown>;

/** The codes every route may answer with, whatever it does: the HTTP layer's own. */
const ANY_ROUTE: CatalogedError[] = [
  coreErrors.bad_request,
  coreErrors.not_found,
  coreErrors.method_not_allowed,
  coreErrors.request_timeout,
  coreErrors.rate_limited,
  coreErrors.headers_too_large,
  coreErrors.internal_error,
];
const GUARDED: CatalogedError[] = [coreErrors.not_authenticated, coreErrors['2fa_setup_required'], coreErrors.password_change_required];
const WITH_BODY: CatalogedError[] = [coreErrors.invalid_json, coreErrors.payload_too_large, coreErrors.unsupported_media_type];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request', 401: 'Not authenticated', 403: 'Forbidden', 404: 'Not found', 405: 'Method not allowed', 408: 'Request timeout',
  409: 'Conflict', 410: 'Gone', 413: 'Payload too large', 415: 'Unsupported media type', 422: 'Validation failed', 423: 'Locked',
  429: 'Too many requests', 431: 'Request headers too large', 500: 'Internal error', 501: 'Not implemented', 502: 'Upstream unavailable',
  503: 'Unavailable', 504: 'Upstream timeout',
};

/** DECISIONS §2's error body with the codes a status carries on this route. */
function errorBody(codes: string[]): Json {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string', enum: codes }, message: { type: 'string' }, details: {} },
      },
    },
  };
}

/** codes a plugin's global hooks add to every route (the auth plugin's rate limit and CSRF rule), per server */
const globalErrors = new WeakMap<object, Array<{ errors: CatalogedError[]; methods?: string[] }>>();

export function addErrorsOnEveryRoute(server: object, errors: CatalogedError[], methods?: string[]): void {
  if (!globalErrors.has(server)) globalErrors.set(server, []);
  globalErrors.get(server)!.push({ errors, methods });
}

/**
 * A route's responses for the OpenAPI document: its declared success bodies, and each error status
 * with the codes it carries (the route's own catalogued codes plus those of the HTTP layer: the guard
 * for a guarded route, validation for a route with a schema, parsing for one that takes a body).
 */
export function routeResponses(opts: { server: object; method: string; permission?: string; hasSchema: boolean; existing: Json | undefined; docs: RouteDocs | undefined }): Json {
  const responses: Json = { ...(opts.existing ?? {}) };
  for (const [status, schema] of Object.entries(opts.docs?.response ?? {})) {
    responses[status] = schema ? { description: 'Success', content: { 'application/json': { schema: plain(schema) } } } : { description: 'Success, no body', type: 'null' };
  }
  // what fastify-swagger shows for a route without response schemas, kept for those that declare none
  if (!Object.keys(responses).some((s) => s.startsWith('2'))) responses['200'] = { description: 'Default Response', type: 'null' };
  const errs = [...ANY_ROUTE, ...(opts.docs?.errors ?? [])];
  for (const g of globalErrors.get(opts.server) ?? []) if (!g.methods || g.methods.includes(opts.method)) errs.push(...g.errors);
  if (opts.permission && opts.permission !== 'public') errs.push(...GUARDED);
  if (opts.permission && opts.permission !== 'public' && opts.permission !== 'auth') errs.push(coreErrors.forbidden);
  if (opts.hasSchema) errs.push(coreErrors.validation_failed);
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(opts.method)) errs.push(...WITH_BODY);
  const byStatus = new Map<number, Set<string>>();
  for (const e of errs) {
    if (!byStatus.has(e.status)) byStatus.set(e.status, new Set());
    byStatus.get(e.status)!.add(e.code);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const list = [...codes].sort();
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.join(', ')}`,
      ...(status === 405 ? { headers: { allow: { type: 'string', description: 'the methods the path takes' } } } : {}),
      content: { 'application/json': { schema: errorBody(list) } },
    };
  }
  return responses;
}

/** a TypeBox schema as plain JSON Schema (its symbol keys dropped) */
function plain(s: TSchema): Json {
  return JSON.parse(JSON.stringify(s));
}
