import { Type } from '@sinclair/typebox';
import { errors, type PluginContext } from '@basin/core';
import { setSessionCookie } from '../request-guard.js';
import type { RouteContext } from './context.js';
import { authErrors } from '../errors.js';

/** a partial session may try this many codes before it is ended (5-minute lifetime aside) */
const MAX_VERIFY_FAILURES = 5;

/** SPEC "Two-factor endpoints". */
export function registerTwoFactorRoutes(ctx: PluginContext, rc: RouteContext): void {
  const { auth } = rc;
  const r = ctx.routes;
  const failures = new Map<string, number>();

  r.post(
    '/api/auth/2fa/setup',
    { errors: [authErrors.auth_disabled, authErrors['2fa_already_enabled'], authErrors.invalid_password], permission: 'auth', allowPending: true, schema: { summary: 'Start 2FA setup: returns the TOTP secret, otpauth URI and recovery codes once', body: Type.Object({ password: Type.String() }) } },
    async (req) => {
      const u = rc.user(req);
      if (u.totp_enabled) throw authErrors['2fa_already_enabled']();
      await auth.requirePassword(u, req.body.password, '2fa.setup', rc.ip(req));
      const s = auth.twoFactor.newSecret(u.email);
      auth.users.update(u.id, { totp_pending_enc: s.sealed });
      const recovery_codes = auth.twoFactor.regenerateRecoveryCodes(u.id);
      auth.audit.record({ actor: u, action: '2fa.setup', ip: rc.ip(req), outcome: 'success' });
      return { secret: s.secret, otpauth_uri: s.otpauth_uri, recovery_codes };
    },
  );

  r.post(
    '/api/auth/2fa/verify-setup',
    { errors: [authErrors.auth_disabled, authErrors['2fa_not_started'], authErrors.invalid_code], permission: 'auth', allowPending: true, schema: { summary: 'Finish 2FA setup with a current TOTP code', body: Type.Object({ code: Type.String({ pattern: '^\\s*\\d{6}\\s*$' }) }) } },
    async (req) => {
      const u = rc.user(req);
      if (!u.totp_pending_enc) throw authErrors['2fa_not_started']();
      if (!auth.twoFactor.useCode(u.id, u.totp_pending_enc, req.body.code.trim())) {
        auth.audit.record({ actor: u, action: '2fa.verify_setup', ip: rc.ip(req), outcome: 'failure' });
        throw authErrors.invalid_code({ hint: '; check the time on your device and try again' });
      }
      auth.users.update(u.id, { totp_secret_enc: u.totp_pending_enc, totp_pending_enc: null, totp_enabled: 1 });
      auth.audit.record({ actor: u, action: '2fa.enable', ip: rc.ip(req), outcome: 'success' });
      return { ok: true, two_factor_enabled: true };
    },
  );

  r.post(
    '/api/auth/2fa/verify',
    { errors: [authErrors.session_required, authErrors['2fa_not_pending'], authErrors.invalid_login_code, authErrors.invalid_code], permission: 'auth', allowPartial: true, allowPending: true, schema: { summary: 'Second login step: a TOTP or recovery code upgrades the partial session', body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }) } },
    async (req, reply) => {
      if (!req.principal?.partial) throw authErrors['2fa_not_pending']();
      const session = rc.session(req);
      try {
        const res = auth.verifySecondFactor(session, req.body.code, rc.ip(req), req.headers['user-agent']);
        failures.delete(session.public_id);
        setSessionCookie(reply, req, auth, res.token, false);
        const pending = auth.pendingFor(res.user, res.session);
        return { ok: true, password_change_required: pending === 'change_password', remaining_recovery_codes: auth.twoFactor.remainingRecoveryCodes(res.user.id) };
      } catch (e) {
        const n = (failures.get(session.public_id) ?? 0) + 1;
        failures.set(session.public_id, n);
        if (n >= MAX_VERIFY_FAILURES) {
          failures.delete(session.public_id);
          auth.sessions.revoke(session.public_id);
        }
        throw e;
      }
    },
  );

  r.post('/api/auth/2fa/disable', { errors: [authErrors.auth_disabled, authErrors.invalid_password], permission: 'auth', schema: { summary: 'Disable 2FA (needs your password)', body: Type.Object({ password: Type.String() }) } }, async (req) => {
    const u = rc.user(req);
    await auth.requirePassword(u, req.body.password, '2fa.disable', rc.ip(req));
    auth.users.update(u.id, { totp_enabled: 0, totp_secret_enc: null, totp_pending_enc: null });
    auth.twoFactor.clear(u.id);
    auth.audit.record({ actor: u, action: '2fa.disable', ip: rc.ip(req), outcome: 'success' });
    return { ok: true, two_factor_enabled: false };
  });

  r.post(
    '/api/auth/2fa/regenerate-recovery',
    { errors: [authErrors.auth_disabled, authErrors['2fa_not_enabled'], authErrors.invalid_password, authErrors.invalid_code], permission: 'auth', schema: { summary: 'New recovery codes (needs password and a current TOTP code)', body: Type.Object({ password: Type.String(), code: Type.String() }) } },
    async (req) => {
      const u = rc.user(req);
      if (!u.totp_enabled || !u.totp_secret_enc) throw authErrors['2fa_not_enabled']();
      await auth.requirePassword(u, req.body.password, '2fa.regenerate_recovery', rc.ip(req));
      if (!auth.twoFactor.useCode(u.id, u.totp_secret_enc, req.body.code.trim())) throw authErrors.invalid_code();
      const recovery_codes = auth.twoFactor.regenerateRecoveryCodes(u.id);
      auth.audit.record({ actor: u, action: '2fa.regenerate_recovery', ip: rc.ip(req), outcome: 'success' });
      return { recovery_codes };
    },
  );
}
