import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import { REDACT_PATHS } from '../logger.js';
import { loggerRedaction } from '../log-redaction.js';
import { clientErrorHandler, installErrorHandling, MethodIndex } from './errors.js';
import { routeResponses } from './openapi-responses.js';
import { guard } from './guard.js';
import { registerDocsPages } from './docs-pages.js';
import { strictBodyValidatorBuilder } from './validators.js';
import { installSlowBodyGuard, type BodyRateOptions } from './slow-body-guard.js';
import type { RouteDocs, RouteTable } from './routes.js';

const require = createRequire(import.meta.url);

export interface ServerOptions {
  logger: boolean | { level: string };
  routeTable: RouteTable;
  version: string;
  title: string;
  /** requests allowed per second of body: default JSON body limit */
  bodyLimit?: number;
  trustProxy?: boolean;
  /** minimum rate of a request body before 408 (slow-body-guard.ts); tests use a short window */
  bodyRate?: BodyRateOptions;
  /** leave the OpenAPI document and its pages out; the caller adds them with `registerDocs` (deferred boots) */
  withoutDocs?: boolean;
}

/** Builds the fastify instance every plugin adds routes to: logging, cookies, guard, errors, OpenAPI. */
export async function buildServer(opts: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : { level: typeof opts.logger === 'object' ? opts.logger.level : 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' }, ...loggerRedaction },
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false, useDefaults: true } },
    // JSON bodies are validated without type coercion (validators.ts)
    schemaController: { compilersFactory: { buildValidator: strictBodyValidatorBuilder() } },
    requestIdHeader: 'x-request-id',
    // a backstop for the whole request (headers + body); slow bodies end much earlier (slow-body-guard.ts)
    requestTimeout: 10 * 60_000,
    clientErrorHandler,
    // long path parameters reach schema validation (422 with the field) instead of the router's bare 414
    routerOptions: { maxParamLength: 1000 },
    exposeHeadRoutes: false,
  });
  app.decorateRequest('principal', null);
  await app.register(cookie);
  const methods = new MethodIndex();
  installErrorHandling(app, methods);
  installSlowBodyGuard(app, opts.bodyRate);

  // Every route must declare its access (core's documentation routes declare theirs: docs-pages.ts).
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!(route.config as Record<string, unknown> | undefined)?.permission) {
      throw new Error(`Route ${String(route.method)} ${url} declares no permission; every route must declare 'public', 'auth' or a permission.`);
    }
    const final = route.config as Record<string, unknown>;
    for (const m of [route.method].flat()) {
      methods.add(String(m), url);
      opts.routeTable.add({ method: String(m), url, permission: String(final.permission), owner: String(final.owner ?? 'unknown'), allowPartial: !!final.allowPartial, allowPending: !!final.allowPending });
    }
    // the guard runs after root onRequest hooks (authentication) and before validation
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...existing, guard];
  });

  if (!opts.withoutDocs) await registerDocs(app, opts);
  return app;
}

/** The OpenAPI document (every route added after this is in it) and its pages: /api/docs (docs-pages.ts), /api/redoc. */
export async function registerDocs(app: FastifyInstance, opts: Pick<ServerOptions, 'title' | 'version'>): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: opts.title, version: opts.version, description: 'Basin REST API. Errors: {"error": {"code", "message", "details"}}. Authenticate with the basin_session cookie or "Authorization: Bearer basin_ak_…".' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'basin_session' },
          apiKey: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const perm = (route.config as Record<string, unknown> | undefined)?.permission;
      const s = { ...(schema ?? {}) } as Record<string, unknown>;
      if (perm && perm !== 'public') s.security = [{ session: [] }, { apiKey: [] }];
      if (perm) s['x-permission'] = perm;
      if (!s.hide) {
        const cfg = route.config as Record<string, unknown> | undefined;
        const method = String([route.method].flat()[0]);
        const hasSchema = ['params', 'querystring', 'body', 'headers'].some((k) => s[k] !== undefined);
        s.response = routeResponses({ server: app, method, permission: perm as string | undefined, hasSchema, existing: s.response as Record<string, unknown> | undefined, docs: cfg?.openapi as RouteDocs | undefined });
      }
      return { schema: s as typeof schema, url };
    },
  });
  // the pages under /api/docs: made on their first request (docs-pages.ts)
  registerDocsPages(app);

  const redocBundle = require.resolve('redoc/bundles/redoc.standalone.js');
  app.get('/api/redoc', { config: { permission: 'public', owner: 'core' }, schema: { hide: true } }, async (_req, reply) => {
    reply.type('text/html').send(`<!doctype html><html><head><meta charset="utf-8"><title>${opts.title} API</title></head><body><redoc spec-url="/api/docs/json"></redoc><script src="/api/redoc/redoc.standalone.js"></script></body></html>`);
  });
  app.get('/api/redoc/redoc.standalone.js', { config: { permission: 'public', owner: 'core' }, schema: { hide: true } }, async (_req, reply) => {
    reply.type('application/javascript').header('cache-control', 'public, max-age=86400').send(fs.createReadStream(redocBundle));
  });
}
