import type { FastifyReply, FastifyRequest } from 'fastify';
import { BasinError, errors } from '../errors.js';

/**
 * Enforces the route's declared access. Runs after authentication (which sets request.principal)
 * and before body validation, so an anonymous caller gets 401 rather than 422.
 */
export async function guard(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const cfg = req.routeOptions.config;
  const permission = cfg.permission;
  if (!permission || permission === 'public') return;
  const p = req.principal;
  if (!p) throw errors.notAuthenticated();
  if (p.partial && !cfg.allowPartial) throw errors.notAuthenticated('Two-factor verification is pending: post your code to /api/auth/2fa/verify.');
  if (p.pending && !cfg.allowPending) {
    throw p.pending === 'setup_2fa'
      ? new BasinError(403, '2fa_setup_required', 'Two-factor authentication must be set up first (POST /api/auth/2fa/setup).', { permission })
      : new BasinError(403, 'password_change_required', 'Your password has expired; change it first (POST /api/auth/change-password).', { permission });
  }
  if (permission === 'auth') return;
  if (!p.permissions.has(permission)) throw errors.forbidden(permission);
}
