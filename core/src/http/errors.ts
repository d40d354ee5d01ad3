import type { FastifyError, FastifyInstance } from 'fastify';
import { BasinError } from '../errors.js';

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

/** Renders every error as DECISIONS §2's body; unknown errors become a 500 that leaks nothing. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { validation?: AjvError[]; validationContext?: string }, req, reply) => {
    if (err instanceof BasinError) {
      if (err.headers) reply.headers(err.headers);
      if (err.status >= 500) req.log.error({ err }, err.message);
      return reply.status(err.status).send(err.toBody());
    }
    if (err.validation) {
      const details = err.validation.map((e) => ({ path: ajvPath(e, err.validationContext), message: e.message ?? 'invalid' }));
      const fields = [...new Set(details.map((d) => d.path))].join(', ');
      return reply.status(422).send(new BasinError(422, 'validation_failed', `The request is invalid: ${fields}.`, details).toBody());
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(new BasinError(413, 'payload_too_large', 'The request body is too large.').toBody());
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send(new BasinError(415, 'unsupported_media_type', 'Unsupported content type; send application/json.').toBody());
    }
    if (status >= 400 && status < 500) {
      const code = err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/.test(err.message) ? 'invalid_json' : 'bad_request';
      return reply.status(400).send(new BasinError(400, code, code === 'invalid_json' ? 'The request body is not valid JSON.' : err.message).toBody());
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(new BasinError(500, 'internal_error', 'Internal server error; see the server log for details.').toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send(new BasinError(404, 'not_found', `No route ${req.method} ${req.url.split('?')[0]}.`).toBody());
  });
}
