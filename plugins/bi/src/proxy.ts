import { LazyHttpProxy, type LazyProxyOptions, type PluginContext, coreErrors } from '@basin/core';
import type { FastifyRequest } from 'fastify';
import { PROXY_ROUTES } from './roles.js';
import { identityOf, signInHeaders } from './sign-in.js';
import type { SupersetSupervisor } from './supervisor.js';
import { biErrors } from './errors.js';

/** Basin's cookies stay with Basin; client copies of the trusted headers never pass. */
function forwardHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [k, v] of Object.entries(headers)) if (!k.toLowerCase().startsWith('x-basin-') && k !== 'authorization') out[k] = v;
  const cookie = typeof headers.cookie === 'string' ? headers.cookie.split(';').map((c) => c.trim()).filter((c) => c && !/^basin_/i.test(c)) : [];
  out.cookie = cookie.length ? cookie.join('; ') : undefined;
  return out;
}

/**
 * /bi/* (and the asset paths Superset 6.1 asks for outside its prefix) to Superset on loopback, signed in
 * as the caller by trusted headers that only this proxy sets, with the shared secret of this start.
 */
export async function registerBiProxy(ctx: PluginContext, deps: { supervisor: SupersetSupervisor; port: () => number; password: (userId: string | null) => string }): Promise<void> {
  const upstream = () => `http://127.0.0.1:${deps.port()}`;
  const guard = async (req: FastifyRequest) => {
    if (!req.principal) throw coreErrors.not_authenticated({ reason: 'Log in to Basin first.' });
    const s = deps.supervisor.current;
    if (s.state !== 'running') {
      throw biErrors.bi_unavailable({ state: s.state, error: s.error ?? undefined }, { details: { state: s.state }, headers: { 'retry-after': '10' } });
    }
  };
  const signIn = (req: { principal: FastifyRequest['principal'] }, headers: Record<string, string | string[] | undefined>) => ({
    ...forwardHeaders(headers),
    ...signInHeaders(deps.supervisor.proxySecret, identityOf(req.principal!, deps.password)),
  });

  // Superset's static assets are immutable: one that comes back 5xx is asked for once more. In a
  // fresh-clone test run Superset 6.1 answered 500 for a webpack chunk of the dashboard page (the
  // chunk's bytes as the body); the page then never drew its charts. Anything else: reply-from's rule.
  const retryStaticOnce: NonNullable<NonNullable<LazyProxyOptions['replyOptions']>['retryDelay']> = ({ req, res, err, attempt, getDefaultDelay }) => {
    if (res && res.statusCode >= 500 && attempt === 0 && (req.method === 'GET' || req.method === 'HEAD') && /\/static\//.test(String(req.url))) {
      // the first answer's body is not read: cancelled, so its connection goes back to the pool
      const body: unknown = Reflect.get(res, 'stream');
      if (body && typeof body === 'object' && 'destroy' in body && typeof body.destroy === 'function') body.destroy();
      ctx.log.warn({ status: res.statusCode, path: new URL(String(req.url), 'http://127.0.0.1').pathname }, 'Superset failed a static asset; asking once more');
      return 100;
    }
    return getDefaultDelay(req, res, err, attempt);
  };

  // the routes are declared now, @fastify/http-proxy is loaded on the first /bi request (core's LazyHttpProxy)
  const proxy = new LazyHttpProxy();
  // the proxied tool's paths are not Basin's API: keep them out of the OpenAPI document
  await ctx.http.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true } as typeof route.schema;
    });
    // one proxy per permission class (each in its own scope: each adds a catch-all body parser)
    for (const r of PROXY_ROUTES) {
      await proxy.register(scope, {
        upstream: '',
        prefix: '/bi',
        rewritePrefix: '/bi',
        routes: r.routes,
        httpMethods: r.methods,
        config: { permission: r.permission, owner: 'bi' },
        preHandler: guard,
        // Superset 6.1 links its logout as /bi/bi/logout (apache/superset#40576)
        preRewrite: (url) => url.replace(/^\/bi\/bi\//, '/bi/'),
        replyOptions: { getUpstream: upstream, rewriteRequestHeaders: signIn, retryDelay: retryStaticOnce },
      });
    }
    // Superset 6.1 requests some webpack chunks at /static/assets outside its prefix (apache/superset#39429)
    await proxy.register(scope, {
      upstream: '',
      prefix: '/static',
      httpMethods: ['GET', 'HEAD'],
      rewritePrefix: '/bi/static',
      config: { permission: 'dashboard.view', owner: 'bi' },
      preHandler: guard,
      replyOptions: { getUpstream: upstream, rewriteRequestHeaders: signIn, retryDelay: retryStaticOnce },
    });
  });
}
