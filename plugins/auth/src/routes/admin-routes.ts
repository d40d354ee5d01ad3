import { Type } from '@sinclair/typebox';
import type { PluginContext } from '@basin/core';
import { toPublicUser } from '../users.js';
import type { RouteContext } from './context.js';
import { authErrors } from '../errors.js';

const RoleT = Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]);
const UserParams = Type.Object({ user_id: Type.String() });

/** SPEC "User management" (users.manage) and the audit log (audit.view). */
export function registerAdminRoutes(ctx: PluginContext, rc: RouteContext): void {
  const { auth } = rc;
  const r = ctx.routes;
  const perm = 'users.manage';
  const withLink = (req: Parameters<RouteContext['link']>[0], res: { user: unknown; token: string; expires_at: string }, key: 'invite' | 'reset') => ({
    user: res.user,
    [`${key}_path`]: `/invite/${res.token}`,
    [`${key}_url`]: rc.link(req, `/invite/${res.token}`),
    expires_at: res.expires_at,
  });

  r.get('/api/admin/users', { permission: perm, schema: { summary: 'Users with role, status, last login and lock state' } }, async () => {
    const locked = new Set(auth.lockout.lockedEmails());
    return auth.users.list().map((u) => ({ ...toPublicUser(u), locked: locked.has(u.email), invite_pending: u.status === 'invited' && auth.tokens.hasPending('invite', u.id) }));
  });

  r.post(
    '/api/admin/users',
    { response: { 201: Type.Unknown({ description: 'the invited user with the invite link' }) }, errors: [authErrors.user_exists], permission: perm, schema: { summary: 'Invite a user (invite link valid 72 hours, single use)', body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }), role: RoleT, display_name: Type.Optional(Type.String({ maxLength: 200 })) }) } },
    async (req, reply) => {
      reply.status(201);
      return withLink(req, auth.createUser(rc.actor(req), req.body.email, req.body.role, req.body.display_name), 'invite');
    },
  );

  r.post('/api/admin/users/:user_id/reinvite', { errors: [authErrors.not_invited], permission: perm, schema: { summary: 'Issue a new invite link', params: UserParams } }, async (req) =>
    withLink(req, auth.reinvite(rc.actor(req), req.params.user_id), 'invite'),
  );

  r.put('/api/admin/users/:user_id/role', { errors: [authErrors.last_admin], permission: perm, schema: { summary: 'Change a role', params: UserParams, body: Type.Object({ role: RoleT }) } }, async (req) =>
    auth.setRole(rc.actor(req), req.params.user_id, req.body.role),
  );

  r.post('/api/admin/users/:user_id/reset-password', { errors: [authErrors.not_accepted], permission: perm, schema: { summary: 'Issue a password reset link', params: UserParams } }, async (req) =>
    withLink(req, auth.resetPassword(rc.actor(req), req.params.user_id), 'reset'),
  );

  r.post('/api/admin/users/:user_id/deactivate', { errors: [authErrors.last_admin], permission: perm, schema: { summary: 'Deactivate: access and sessions end at once', params: UserParams } }, async (req) =>
    auth.deactivate(rc.actor(req), req.params.user_id),
  );

  r.post('/api/admin/users/:user_id/reactivate', { errors: [authErrors.not_inactive], permission: perm, schema: { summary: 'Reactivate a deactivated user', params: UserParams } }, async (req) =>
    auth.reactivate(rc.actor(req), req.params.user_id),
  );

  r.delete('/api/admin/users/:user_id', { errors: [authErrors.last_admin], permission: perm, schema: { summary: 'Delete a user permanently', params: UserParams } }, async (req) => {
    auth.deleteUser(rc.actor(req), req.params.user_id);
    return { ok: true };
  });

  r.post('/api/admin/users/:user_id/unlock', { permission: perm, schema: { summary: 'Clear login lockout for this user from every address', params: UserParams } }, async (req) => {
    const u = auth.getUser(req.params.user_id);
    return { ok: true, cleared: auth.unlock(rc.actor(req), u.email) };
  });

  // beyond SPEC: a user who lost their authenticator and recovery codes needs an admin to remove 2FA
  r.post('/api/admin/users/:user_id/reset-2fa', { permission: perm, schema: { summary: "Remove a user's two-factor authentication (lost device); their sessions end and they may set it up again", params: UserParams } }, async (req) => ({
    ok: true,
    two_factor_enabled: false,
    ...auth.resetTwoFactor(rc.actor(req), req.params.user_id),
  }));

  r.post('/api/admin/users/:user_id/revoke-sessions', { permission: perm, schema: { summary: "End all of a user's sessions", params: UserParams } }, async (req) => ({
    ok: true,
    sessions_ended: auth.revokeSessions(rc.actor(req), req.params.user_id),
  }));

  r.get(
    '/api/admin/audit',
    {
      permission: 'audit.view',
      schema: { summary: 'The append-only audit log of auth and admin actions, newest first', querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }), offset: Type.Integer({ minimum: 0, default: 0 }), action: Type.Optional(Type.String()) }) },
    },
    async (req) => auth.audit.list(req.query.limit, req.query.offset, req.query.action),
  );
}
