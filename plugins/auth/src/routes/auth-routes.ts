import { Type } from '@sinclair/typebox';
import { errors, type PluginContext, coreErrors } from '@basin/core';
import { toPublicKey } from '../api-keys.js';
import { clearSessionCookie, setSessionCookie } from '../request-guard.js';
import type { LoginResult } from '../service.js';
import { toPublicUser } from '../users.js';
import type { RouteContext } from './context.js';
import { authErrors } from '../errors.js';

/** GET /api/auth/me: auth off, or the signed-in user with role, permissions and what they must do first */
const MeBody = Type.Union([
  Type.Object({ auth_enabled: Type.Literal(false) }),
  Type.Object({
    auth_enabled: Type.Literal(true),
    id: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]),
    permissions: Type.Array(Type.String()),
    auth_method: Type.Union([Type.Literal('session'), Type.Literal('api_key')]),
    partial: Type.Boolean(),
    pending: Type.Union([Type.Literal('setup_2fa'), Type.Literal('change_password'), Type.Null()]),
    password_change_required: Type.Boolean(),
    two_factor_setup_required: Type.Boolean(),
  }),
]);

const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });
const Password = Type.String({ minLength: 1 });
const Ok = { 200: Type.Object({ ok: Type.Boolean() }) };

/** SPEC "Authentication endpoints" (OAuth ones are in oauth-routes.ts) plus first-admin setup. */
export function registerAuthRoutes(ctx: PluginContext, rc: RouteContext): void {
  const { auth } = rc;
  const r = ctx.routes;
  const loginBody = (res: LoginResult) => {
    const pending = res.session.partial ? undefined : auth.pendingFor(res.user, res.session);
    return {
      user: toPublicUser(res.user),
      two_factor_required: !!res.session.partial,
      password_change_required: pending === 'change_password',
      two_factor_setup_required: pending === 'setup_2fa',
      ...(res.session.partial ? { next: '/api/auth/2fa/verify' } : pending === 'change_password' ? { next: '/setup' } : {}),
    };
  };

  r.post(
    '/api/auth/login',
    { errors: [authErrors.invalid_credentials, authErrors.login_locked], permission: 'public', schema: { summary: 'Log in with e-mail and password', body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ maxLength: 4096 }) }) } },
    async (req, reply) => {
      const res = await auth.login(req.body.email, req.body.password, rc.ip(req), req.headers['user-agent']);
      setSessionCookie(reply, req, auth, res.token, !!res.session.partial);
      return loginBody(res);
    },
  );

  r.post('/api/auth/logout', { errors: [authErrors.session_required], permission: 'auth', allowPartial: true, allowPending: true, schema: { summary: 'End the current session', response: Ok } }, async (req, reply) => {
    rc.user(req);
    await auth.logout(rc.session(req), rc.ip(req));
    clearSessionCookie(reply, req, auth);
    return { ok: true };
  });

  r.get('/api/auth/me', { permission: 'public', errors: [coreErrors.not_authenticated], response: { 200: MeBody }, schema: { summary: 'The current user with role and permissions, or {"auth_enabled": false}' } }, async (req) => {
    const p = req.principal;
    if (!auth.settings().enabled || p?.kind === 'auth_disabled') return { auth_enabled: false };
    if (!p?.userId) throw errors.notAuthenticated();
    const u = rc.user(req);
    return {
      auth_enabled: true,
      ...toPublicUser(u),
      permissions: [...p.permissions].sort(),
      auth_method: p.kind,
      partial: !!p.partial,
      pending: p.pending ?? null,
      password_change_required: p.pending === 'change_password',
      two_factor_setup_required: p.pending === 'setup_2fa',
    };
  });

  r.post(
    '/api/auth/change-password',
    { errors: [authErrors.auth_disabled, authErrors.wrong_current_password, authErrors.password_reused, authErrors.password_too_short, authErrors.password_too_common], permission: 'auth', allowPending: true, schema: { summary: 'Change your password (ends your other sessions)', body: Type.Object({ current_password: Password, new_password: Type.String() }), response: Ok } },
    async (req) => {
      const u = rc.user(req);
      await auth.changePassword(u, req.body.current_password, req.body.new_password, req.principal?.sessionId, rc.ip(req));
      return { ok: true };
    },
  );

  r.get('/api/auth/sessions', { errors: [authErrors.auth_disabled], permission: 'auth', schema: { summary: 'Your active sessions' } }, async (req) => {
    const u = rc.user(req);
    return auth.sessions.listForUser(u.id).map((s) => ({
      id: s.public_id,
      method: s.method,
      created_at: s.created_at,
      last_seen_at: s.last_seen_at,
      expires_at: s.expires_at,
      ip: s.ip,
      user_agent: s.user_agent,
      current: s.public_id === req.principal?.sessionId,
    }));
  });

  r.delete(
    '/api/auth/sessions/:session_id',
    { errors: [authErrors.auth_disabled], permission: 'auth', schema: { summary: 'Revoke one of your sessions', params: Type.Object({ session_id: Type.String() }), response: Ok } },
    async (req, reply) => {
      const u = rc.user(req);
      const s = auth.sessions.byPublicId(req.params.session_id);
      if (!s || s.user_id !== u.id) throw errors.notFound(`Session ${req.params.session_id}`);
      await auth.logout(s, rc.ip(req));
      if (s.public_id === req.principal?.sessionId) clearSessionCookie(reply, req, auth);
      return { ok: true };
    },
  );

  r.post(
    '/api/auth/api-keys',
    { response: { 201: Type.Unknown({ description: 'the key, shown once' }) }, errors: [authErrors.auth_disabled],
      permission: 'auth',
      schema: { summary: 'Create an API key (the full key is returned once)', body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])) }) },
    },
    async (req, reply) => {
      const u = rc.user(req);
      reply.status(201);
      return auth.createKey(u, req.body.name, req.body.expires_at ?? null, rc.ip(req));
    },
  );

  r.get('/api/auth/api-keys', { errors: [authErrors.auth_disabled], permission: 'auth', schema: { summary: 'Your API keys (prefix and metadata only)' } }, async (req) => {
    return auth.keys.listForUser(rc.user(req).id).map(toPublicKey);
  });

  r.delete(
    '/api/auth/api-keys/:key_id',
    { errors: [authErrors.auth_disabled], permission: 'auth', schema: { summary: 'Revoke one of your API keys', params: Type.Object({ key_id: Type.String() }), response: Ok } },
    async (req) => {
      auth.revokeKey(rc.user(req), req.params.key_id, rc.ip(req));
      return { ok: true };
    },
  );

  r.get('/api/auth/invite/:token', { permission: 'public', schema: { summary: 'Check an invite or reset link before showing its form', params: Type.Object({ token: Type.String() }) } }, async (req) => {
    const t = auth.tokens.find(req.params.token, ['invite', 'reset']);
    const u = t?.user_id ? auth.users.byId(t.user_id) : undefined;
    if (!t || !u) throw errors.notFound('Invite');
    return { email: u.email, kind: t.kind, expires_at: t.expires_at };
  });

  r.post(
    '/api/auth/accept-invite',
    { errors: [authErrors.invalid_token, authErrors.password_too_short, authErrors.password_too_common],
      permission: 'public',
      schema: { summary: 'Accept an invite (or reset link): set a password and sign in', body: Type.Object({ token: Type.String({ minLength: 1 }), password: Type.String(), display_name: Type.Optional(Type.String({ maxLength: 200 })) }) },
    },
    async (req, reply) => {
      const res = await auth.acceptToken(req.body.token, req.body.password, req.body.display_name, rc.ip(req), req.headers['user-agent']);
      setSessionCookie(reply, req, auth, res.token, !!res.session.partial);
      return loginBody(res);
    },
  );

  r.get('/api/auth/setup', { permission: 'public', schema: { summary: 'Whether the first admin still has to be created' } }, async () => ({ needs_setup: auth.users.count() === 0 }));

  r.post(
    '/api/auth/setup',
    { response: { 201: Type.Unknown({ description: 'the first admin, logged in' }) }, errors: [authErrors.already_set_up, authErrors.invalid_token, authErrors.user_exists, authErrors.password_too_short, authErrors.password_too_common], permission: 'public', schema: { summary: 'Create the first admin with the one-time setup token', body: Type.Object({ token: Type.String({ minLength: 1 }), email: Email, password: Type.String() }) } },
    async (req, reply) => {
      const res = await auth.completeSetup(req.body.token, req.body.email, req.body.password, rc.ip(req), req.headers['user-agent']);
      setSessionCookie(reply, req, auth, res.token, false);
      reply.status(201);
      return loginBody(res);
    },
  );
}
