import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyHttpProxyOptions } from '@fastify/http-proxy';

// @fastify/http-proxy (with @fastify/reply-from, undici, ws and node:http2) cost 50-75 ms of CPU and
// 6-15 MB of memory when it loaded at every `basin start`, for proxies many runs never use. Here the
// routes that front a companion are declared at start, exactly as the proxy would declare them (paths,
// methods, config with the permission, preHandler, the body passed through unparsed, the WebSocket
// upgrade listener), so authentication, the permission guard, CSRF/Origin rules and the preHandler run
// in Basin's app as before. The proxy module and its instance are made on the first request: a second
// fastify instance, never listening, holds the real @fastify/http-proxy with the same options; Basin's
// route hands it the request (`routing`, the public entry point http-proxy itself uses for upgrades)
// once its own hooks have passed. That instance renders errors with Basin's error handler and logs with
// Basin's logger under the same request id; it is closed with Basin's server.

/** what @fastify/http-proxy declares when `routes` / `httpMethods` are not given (its defaultRoutes, defaultHttpMethods) */
export const PROXY_DEFAULT_ROUTES = ['/', '/*'];
export const PROXY_DEFAULT_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

/** @fastify/http-proxy's options, less the ones that change how the route itself is declared */
export type LazyProxyOptions = Omit<FastifyHttpProxyOptions, 'preHandler' | 'beforeHandler' | 'preValidation' | 'handler' | 'proxyPayloads' | 'constraints' | 'wsClientOptions'> & {
  /** proxy WebSocket upgrades too (marimo's kernel channel) */
  websocket?: boolean;
  wsUpstream?: string;
  /** runs in Basin's app, after authentication and the permission guard, before the proxy sees the request */
  preHandler?: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** as the proxy's; `rewriteRequestHeaders` gets Basin's request (the proxy honours it, its types do not list it) */
  wsClientOptions?: FastifyHttpProxyOptions['wsClientOptions'] & {
    rewriteRequestHeaders?: (headers: Record<string, unknown>, req: FastifyRequest) => Record<string, unknown>;
  };
};

interface Entry {
  opts: LazyProxyOptions;
  /** the whole prefix the routes were declared under (the scope's and opts.prefix) */
  prefix: string;
  /** Basin's error handler where the routes were declared: errors of the proxy render as Basin's */
  errorHandler: FastifyInstance['errorHandler'];
}

/** what the proxy's own instance takes from Basin's app */
interface Base {
  log: FastifyInstance['log'];
  exposeHeadRoutes: boolean;
  routerOptions: Record<string, unknown>;
}

interface Upgrade {
  socket: Duplex;
  head: Buffer;
  response: ServerResponse;
}

/** the upgrade's socket and first bytes, from the listener to the route that hands them on */
const upgrades = new WeakMap<IncomingMessage, Upgrade>();
/** the upgrade listener each server has (one for every proxy on it, as @fastify/http-proxy does) */
const listeners = new WeakMap<Server, { prefixes: string[] }>();

/** @fastify/http-proxy's rule: the only 'upgrade' listener takes every upgrade, else only those under its prefixes */
function withinPrefixes(url: string, prefixes: string[]): boolean {
  const pathname = url.split('?', 1)[0]!;
  return prefixes.some((prefix) => {
    const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
    return base === '' || pathname === base || pathname.startsWith(`${base}/`);
  });
}

/** Dispatches WebSocket upgrades under `prefix` through Basin's router, so its hooks and the route's preHandler run first. */
function listenForUpgrades(scope: FastifyInstance, prefix: string): void {
  const server = scope.server;
  let entry = listeners.get(server);
  if (!entry) {
    const prefixes: string[] = [];
    entry = { prefixes };
    listeners.set(server, entry);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (server.listenerCount('upgrade') !== 1 && !withinPrefixes(req.url ?? '/', prefixes)) return;
      const response = new ServerResponse(req);
      response.assignSocket(socket as never);
      // an answer from Basin (401, 403, 409...) ends the exchange; the route hands the socket on otherwise
      response.on('finish', () => socket.destroy());
      upgrades.set(req, { socket, head, response });
      scope.routing(req, response);
    });
  }
  entry.prefixes.push(prefix);
}

/**
 * The proxies of one plugin: `register` declares a proxy's routes at start; the proxy itself is made on
 * the first request that reaches one of them.
 */
export class LazyHttpProxy {
  private readonly entries: Entry[] = [];
  private base: Base | null = null;
  private app: Promise<FastifyInstance> | null = null;
  /** Basin's request of each raw request handed to the proxy: its callbacks get it (principal, params) */
  private readonly basinRequest = new WeakMap<IncomingMessage, FastifyRequest>();
  private closeHooked = false;

  /** Declares the routes `@fastify/http-proxy` would declare with `opts`, in a scope of their own under `scope`. */
  async register(scope: FastifyInstance, opts: LazyProxyOptions): Promise<void> {
    if (this.app) throw new Error('LazyHttpProxy.register after the proxy was made');
    // the check @fastify/http-proxy makes when it registers, made at start as before
    if (!opts.upstream && !opts.websocket && !((opts.upstream === '' || opts.wsUpstream === '') && typeof opts.replyOptions?.getUpstream === 'function')) {
      throw new Error('upstream must be specified');
    }
    const initial = scope.initialConfig as { exposeHeadRoutes?: boolean; caseSensitive?: boolean; routerOptions?: Record<string, unknown> };
    this.base ??= { log: scope.log, exposeHeadRoutes: initial.exposeHeadRoutes ?? true, routerOptions: { ...initial.routerOptions, caseSensitive: initial.caseSensitive ?? true } };
    const entry: Entry = { opts, prefix: '', errorHandler: scope.errorHandler };
    this.entries.push(entry);
    const handler = this.handler(!!opts.websocket);
    await scope.register(
      async (one) => {
        // the body goes to the companion as it came: no parsing, no body limit (as the proxy does)
        const passThrough = (_req: FastifyRequest, payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null, payload);
        one.addContentTypeParser('application/json', passThrough);
        one.addContentTypeParser('*', passThrough);
        for (const url of opts.routes ?? PROXY_DEFAULT_ROUTES) {
          one.route({ url, method: opts.httpMethods ?? PROXY_DEFAULT_METHODS, config: (opts.config ?? {}) as never, ...(opts.preHandler ? { preHandler: opts.preHandler } : {}), handler });
        }
        entry.prefix = one.prefix;
        if (opts.websocket) listenForUpgrades(one, one.prefix);
      },
      { prefix: opts.prefix ?? '' },
    );
    if (!this.closeHooked) {
      this.closeHooked = true;
      // before Basin's server closes: the proxy's open WebSockets would keep it from closing
      scope.addHook('preClose', async () => {
        const app = await this.app?.catch(() => null);
        await app?.close();
      });
    }
  }

  private handler(websocket: boolean) {
    return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const app = await (this.app ??= this.build().catch((err: unknown) => {
        // the next request tries again (e.g. after a failed import)
        this.app = null;
        throw err;
      }));
      this.basinRequest.set(req.raw, req);
      const upgrade = websocket ? upgrades.get(req.raw) : undefined;
      reply.hijack();
      if (upgrade) {
        // the proxy's own upgrade listener takes the socket from here (it answers 101 or an error itself)
        upgrades.delete(req.raw);
        upgrade.response.detachSocket(upgrade.socket as never);
        app.server.emit('upgrade', req.raw, upgrade.socket, upgrade.head);
      } else {
        app.routing(req.raw, reply.raw);
      }
    };
  }

  /** The real proxy: a fastify instance that never listens, with @fastify/http-proxy registered as declared. */
  private async build(): Promise<FastifyInstance> {
    const [{ default: Fastify }, { default: httpProxy }] = await Promise.all([import('fastify'), import('@fastify/http-proxy')]);
    const base = this.base!;
    const outer = (req: FastifyRequest): FastifyRequest => this.basinRequest.get(req.raw) ?? req;
    const app = Fastify({
      loggerInstance: base.log,
      // Basin's app logs each request (it sees the response finish); the proxy's own lines carry its id
      // (older fastify 5 releases have no LogController, only the option it replaced)
      ...(typeof Fastify.LogController === 'function' ? { logController: new Fastify.LogController({ disableRequestLogging: true }) } : { disableRequestLogging: true }),
      genReqId: (raw) => this.basinRequest.get(raw as IncomingMessage)?.id ?? 'proxy',
      exposeHeadRoutes: base.exposeHeadRoutes,
      routerOptions: base.routerOptions,
    });
    for (const { opts, prefix, errorHandler } of this.entries) {
      const { preHandler: _guard, replyOptions, wsClientOptions, ...rest } = opts;
      await app.register(async (one) => {
        one.setErrorHandler(errorHandler);
        await one.register(httpProxy, {
          ...rest,
          prefix,
          ...(replyOptions
            ? {
                replyOptions: {
                  ...replyOptions,
                  ...(replyOptions.getUpstream ? { getUpstream: (req: FastifyRequest, base: string) => replyOptions.getUpstream!(outer(req), base) } : {}),
                  ...(replyOptions.rewriteRequestHeaders ? { rewriteRequestHeaders: (req: FastifyRequest, headers: Record<string, string | string[] | undefined>) => replyOptions.rewriteRequestHeaders!(outer(req), headers as never) } : {}),
                  ...(replyOptions.rewriteHeaders ? { rewriteHeaders: (headers: Record<string, string | string[] | undefined>, req?: FastifyRequest) => replyOptions.rewriteHeaders!(headers as never, req && outer(req)) } : {}),
                },
              }
            : {}),
          ...(wsClientOptions
            ? {
                wsClientOptions: {
                  ...wsClientOptions,
                  ...(wsClientOptions.rewriteRequestHeaders ? { rewriteRequestHeaders: (headers: Record<string, unknown>, req: FastifyRequest) => wsClientOptions.rewriteRequestHeaders!(headers, outer(req)) } : {}),
                } as never,
              }
            : {}),
        } as FastifyHttpProxyOptions);
      });
    }
    await app.ready();
    return app;
  }
}
