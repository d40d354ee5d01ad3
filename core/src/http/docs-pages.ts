import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';

const require = createRequire(import.meta.url);

const DOCS_PREFIX = '/api/docs';
/** the documentation app's answer to a path it has no page for: the server answers with its own 404 */
const NOT_FOUND = 'x-basin-docs-not-found';
/** headers of the documentation app's answer that the server's reply sets itself */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', NOT_FOUND]);

/**
 * The API documentation pages under /api/docs (Swagger UI's page, initializer and static files, and
 * the OpenAPI document as JSON and YAML) come from a second fastify instance, made on the first
 * request there and asked through `inject`. Registering @fastify/swagger-ui with @fastify/static on
 * the server cost 20-25 ms of every `basin start` (issue 19), for pages most runs never open. The
 * document is still the server's own: @fastify/swagger is registered on the server, sees every route,
 * and the pages read it at each request as before.
 */
export function registerDocsPages(server: FastifyInstance): void {
  let docs: Promise<FastifyInstance> | null = null;
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    docs ??= docsApp(server).catch((e: unknown) => {
      docs = null;
      throw e;
    });
    const res = await (await docs).inject({ method: req.method as 'GET' | 'HEAD', url: req.url, headers: req.headers });
    if (res.headers[NOT_FOUND]) return reply.callNotFound();
    if (res.statusCode >= 500) throw new Error(`the API documentation page ${req.url} failed (HTTP ${res.statusCode})`);
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && !OWN_HEADERS.has(name)) reply.header(name, value);
    // an empty answer (a redirect, 304) stays without a body and so without a content type
    return reply.code(res.statusCode).send(res.rawPayload.length ? res.rawPayload : undefined);
  };
  for (const url of [DOCS_PREFIX, `${DOCS_PREFIX}/*`]) {
    server.route({ method: ['GET', 'HEAD'], url, config: { permission: 'public', owner: 'core' }, schema: { hide: true }, handler: forward });
  }
}

async function docsApp(server: FastifyInstance): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  // what @fastify/swagger-ui needs of @fastify/swagger: a plugin of that name that decorates `swagger`,
  // here the server's document (as fastify-plugin would mark it: same context, and named)
  const serverDocument = async (instance: FastifyInstance) => {
    instance.decorate('swagger', ((opts?: { yaml?: boolean }) => (opts?.yaml ? server.swagger({ yaml: true }) : server.swagger())) as FastifyInstance['swagger']);
  };
  Object.assign(serverDocument, { [Symbol.for('skip-override')]: true, [Symbol.for('plugin-meta')]: { name: '@fastify/swagger' } });
  await app.register(serverDocument);
  // its static files and logo named by path (its defaults are relative to its own module, which the
  // build bundles: src/vendor/http.ts)
  const uiStatic = path.join(path.dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static');
  const logo = { type: 'image/svg+xml', content: fs.readFileSync(path.join(uiStatic, 'logo.svg')) };
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: true, uiConfig: { deepLinking: true }, baseDir: uiStatic, logo });
  app.setNotFoundHandler((_req, reply) => reply.code(404).header(NOT_FOUND, '1').send());
  await app.ready();
  return app;
}
