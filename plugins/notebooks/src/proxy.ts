import { errors, LazyHttpProxy, type LazyProxyOptions, type PluginContext, coreErrors } from '@basin/core';
import { marimoAuthorization as basic, type NotebookServers } from './servers.js';
import type { NotebookService } from './service.js';
import { notebookErrors } from './errors.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const originHost = (origin: string): string | null => {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
};

/** Basin's cookies stay with Basin: marimo gets only its own. */
function withoutBasinCookies(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  const kept = cookie
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c && !/^basin_/i.test(c));
  return kept.length ? kept.join('; ') : undefined;
}

/**
 * /notebooks/{name}/* to the notebook's marimo server (HTTP and WebSocket), for the user who holds its
 * lock. The proxy adds marimo's token itself, so the token never reaches the browser.
 */
export async function registerNotebookProxy(ctx: PluginContext, deps: { service: () => NotebookService; servers: NotebookServers }): Promise<void> {
  const nameOf = (req: { params: unknown }) => String((req.params as Record<string, string> | undefined)?.name ?? '');
  const server = (req: { params: unknown }) => deps.servers.get(nameOf(req));
  // the WebSocket side: @fastify/http-proxy honours rewriteRequestHeaders here too, its types do not list it
  const wsClientOptions: NonNullable<LazyProxyOptions['wsClientOptions']> = {
    rewriteRequestHeaders: (headers, req) => {
      const s = server(req);
      const out: Record<string, unknown> = { ...headers };
      const cookie = withoutBasinCookies(typeof req.headers.cookie === 'string' ? req.headers.cookie : undefined);
      if (cookie) out.cookie = cookie;
      if (s) out.authorization = basic(s.token);
      return out;
    },
  };

  // the proxied tool's paths are not Basin's API: keep them out of the OpenAPI document
  await ctx.http.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true } as typeof route.schema;
    });
    // the routes and the upgrade listener are declared now, @fastify/http-proxy is loaded on the first
    // notebook request (core's LazyHttpProxy)
    await new LazyHttpProxy().register(scope, {
      prefix: '/notebooks',
      rewritePrefix: '/notebooks',
      // not '/': GET /notebooks is the UI's notebook list page
      routes: ['/:name', '/:name/*'],
      websocket: true,
      upstream: '',
      config: { permission: 'notebooks.execute', owner: 'notebooks' },
      preHandler: async (req) => {
        const name = nameOf(req);
        if (!NAME.test(name)) throw errors.notFound('Notebook');
        const svc = deps.service();
        if (!svc.exists(name)) throw errors.notFound(`Notebook "${name}"`);
        const p = req.principal;
        // a WebSocket opened with the session cookie must come from Basin's own pages
        if (req.headers.upgrade && p?.kind === 'session' && req.headers.origin && originHost(req.headers.origin) !== req.headers.host) {
          throw coreErrors.csrf_rejected({ reason: 'WebSocket connections with a session cookie must come from this server’s own origin.' });
        }
        if (!svc.holder(name, { id: p?.userId ?? null, email: p?.email ?? null })) {
          throw notebookErrors.notebook_open_needs_lock({ name });
        }
        if (!server(req)) throw notebookErrors.notebook_server_down({ name });
        // activity keeps the server from its idle stop: each request, and each WebSocket while it is open
        deps.servers.touch(name);
        if (req.headers.upgrade) req.raw.socket.once('close', deps.servers.socketOpened(name));
      },
      replyOptions: {
        getUpstream: (req) => `http://127.0.0.1:${server(req)?.port ?? 9}`,
        rewriteRequestHeaders: (req, headers) => {
          const s = server(req);
          const out: Record<string, string | string[] | undefined> = { ...headers, cookie: withoutBasinCookies(headers.cookie) };
          delete out['x-requested-with'];
          if (s) out.authorization = basic(s.token);
          return out;
        },
      },
      wsClientOptions,
    });
  });
}
