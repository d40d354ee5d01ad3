import { Type } from '@sinclair/typebox';
import type { PluginContext } from '@basin/core';
import { parseCookies } from '../client.js';
import { OAuthRefused, type OidcLogin } from '../oidc.js';
import { servedOverHttps, setSessionCookie } from '../request-guard.js';
import type { RouteContext } from './context.js';
import { authErrors } from '../errors.js';

const STATE_COOKIE = 'basin_oauth_state';
const Params = Type.Object({ provider: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }) });

/** SPEC "OAuth login rules": an existing e-mail logs in and links the identity; OAuth never creates accounts. */
export function registerOAuthRoutes(ctx: PluginContext, rc: RouteContext, login: OidcLogin): void {
  const { auth } = rc;
  const r = ctx.routes;
  const cookiePath = '/api/auth/oauth';

  r.get('/api/auth/oauth/providers', { permission: 'public', schema: { summary: 'OAuth login providers configured for this project' } }, async () => login.list());

  r.get('/api/auth/oauth/:provider/login', { errors: [authErrors.oauth_not_configured], permission: 'public', schema: { summary: "Redirect to the identity provider's consent screen", params: Params } }, async (req, reply) => {
    const redirectUri = rc.link(req, `/api/auth/oauth/${req.params.provider}/callback`);
    const { url, state } = await login.begin(req.params.provider, redirectUri);
    const secure = servedOverHttps(req, auth.settings().rate_limit.trusted_proxies);
    reply.setCookie(STATE_COOKIE, state, { httpOnly: true, sameSite: 'lax', secure, path: cookiePath, maxAge: 600 });
    return reply.redirect(url, 302);
  });

  r.get('/api/auth/oauth/:provider/callback', { errors: [authErrors.oauth_not_configured], permission: 'public', schema: { summary: 'Handle the provider callback, then redirect to the app or to /login?error=…', params: Params } }, async (req, reply) => {
    const provider = req.params.provider as string;
    const ip = rc.ip(req);
    const browserState = parseCookies(req.headers.cookie)[STATE_COOKIE];
    reply.clearCookie(STATE_COOKIE, { path: cookiePath });
    const fail = (reason: string, email?: string) => {
      auth.audit.record({ action: 'login.oauth', target: email ?? provider, ip, outcome: 'failure', details: { provider, reason } });
      return reply.redirect(`/login?error=${encodeURIComponent(`oauth_${reason}`)}`, 302);
    };
    let identity;
    try {
      identity = await login.complete(provider, new URL(rc.link(req, req.url)), browserState);
    } catch (e) {
      if (e instanceof OAuthRefused) return fail(e.reason);
      throw e;
    }
    const linked = auth.db.prepare('SELECT user_id FROM auth_identities WHERE provider = ? AND subject = ?').get(provider, identity.subject) as { user_id: string } | undefined;
    const user = linked ? auth.users.byId(linked.user_id) : auth.users.byEmail(identity.email);
    if (!user || user.status !== 'active') return fail('no_account', identity.email);
    if (!linked) {
      auth.db.prepare('INSERT OR REPLACE INTO auth_identities (provider, subject, user_id, email, linked_at) VALUES (?, ?, ?, ?, ?)').run(provider, identity.subject, user.id, identity.email, ctx.clock.now().toISOString());
      auth.audit.record({ actor: user, action: 'oauth.link', target: user.email, ip, outcome: 'success', details: { provider } });
    }
    const res = auth.startSession(user, 'oauth', ip, req.headers['user-agent']);
    setSessionCookie(reply, req, auth, res.token, !!res.session.partial);
    return reply.redirect(res.session.partial ? '/login?step=2fa' : '/', 302);
  });
}
