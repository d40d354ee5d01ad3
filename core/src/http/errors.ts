import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { BasinError } from '../errors.js';
import { coreErrors } from '../core-errors.js';

interface AjvError {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
  keyword?: string;
}

function ajvPath(e: AjvError, context?: string): string {
  const base = context ?? 'body';
  let p = (e.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required' && e.params?.missingProperty) p = p ? `${p}.${e.params.missingProperty}` : String(e.params.missingProperty);
  if (e.keyword === 'additionalProperties' && e.params?.additionalProperty) p = p ? `${p}.${e.params.additionalProperty}` : String(e.params.additionalProperty);
  return p ? `${base}.${p}` : base;
}

/** fastify's own client errors (body parsing, URLs) and what they become in DECISIONS §2's body */
function frameworkError(err: FastifyError): BasinError | null {
  const status = err.statusCode ?? 500;
  if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return coreErrors.payload_too_large();
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return coreErrors.unsupported_media_type();
  if (status === 408) return coreErrors.request_timeout();
  if (status >= 400 && status < 500) {
    const json = err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/.test(err.message);
    return json ? coreErrors.invalid_json() : coreErrors.bad_request({ reason: err.message });
  }
  return null;
}

/**
 * The paths and methods of every route, to tell "no such path" (404) from "path without this method"
 * (405 with Allow). A second router because fastify's answers only whether a method's route matches.
 * Built on the first unknown route, not at start: building a find-my-way router of every route cost
 * `basin start` ~10-20 ms of CPU for an answer most runs never give.
 */
export class MethodIndex {
  private router: ReturnType<typeof FindMyWay> | null = null;
  private readonly pending: Array<[string, string]> = [];
  add(method: string, url: string): void {
    if (this.router) this.on(this.router, method, url);
    else this.pending.push([method, url]);
  }
  allowed(path: string): string[] {
    if (!this.router) {
      const router = FindMyWay({ ignoreTrailingSlash: false });
      for (const [method, url] of this.pending.splice(0)) this.on(router, method, url);
      this.router = router;
    }
    const methods: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    return methods.filter((m) => this.router!.find(m, path) !== null);
  }
  private on(router: ReturnType<typeof FindMyWay>, method: string, url: string): void {
    try {
      router.on(method as HTTPMethod, url, () => undefined);
    } catch {
      /* a route fastify accepted that this router cannot hold (it only loses the 405 hint) */
    }
  }
}

/** Renders every error as DECISIONS §2's body; unknown errors become a 500 that leaks nothing. */
export function installErrorHandling(app: FastifyInstance, methods: MethodIndex): void {
  const unknownRoute = (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '/';
    const allow = methods.allowed(path);
    if (allow.length && !allow.includes(req.method)) {
      return reply.status(405).header('allow', allow.join(', ')).send(coreErrors.method_not_allowed({ method: req.method, allow }, { details: { allow } }).toBody());
    }
    return reply.status(404).send(coreErrors.not_found({ route: `${req.method} ${path}` }).toBody());
  };
  app.setErrorHandler((err: FastifyError & { validation?: AjvError[]; validationContext?: string }, req, reply) => {
    // a method no route takes (QUERY, a body without a content type...) fails parsing before the not-found handler runs
    if (req.is404) return unknownRoute(req, reply);
    if (err instanceof BasinError) {
      if (err.headers) reply.headers(err.headers);
      if (err.status >= 500) req.log.error({ err }, err.message);
      return reply.status(err.status).send(err.toBody());
    }
    if (err.validation) {
      const details = err.validation.map((e) => ({ path: ajvPath(e, err.validationContext), message: e.message ?? 'invalid' }));
      const fields = [...new Set(details.map((d) => d.path))].join(', ');
      return reply.status(422).send(coreErrors.validation_failed({ fields }, { details }).toBody());
    }
    const known = frameworkError(err);
    if (known) return reply.status(known.status).send(known.toBody());
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(coreErrors.internal_error().toBody());
  });
  app.setNotFoundHandler(unknownRoute);
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Errors node's HTTP parser raises before a request reaches fastify (headers too large, malformed
 * request lines, slow headers), answered with the standard error body instead of a bare status line.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  // a reset connection is already gone (as fastify's default handler does)
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const e =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? coreErrors.headers_too_large()
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? coreErrors.request_timeout()
        : coreErrors.bad_request();
  const body = JSON.stringify(e.toBody());
  // node's own behaviour, with our body: write when possible, then destroy (never wait on the peer)
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${e.status} ${REASONS[e.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}
