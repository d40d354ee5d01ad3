import type { FastifyReply, FastifyRequest } from 'fastify';
import { coreErrors } from '../core-errors.js';

/**
 * Enforces the route's declared access. Runs after authentication (which sets request.principal)
 * and before body validation, so an anonymous caller gets 401 rather than 422.
 */
export async function guard(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const cfg = req.routeOptions.config;
  const permission = cfg.permission;
  if (!permission || permission === 'public') return;
  const p = req.principal;
  if (!p) throw coreErrors.not_authenticated();
  if (p.partial && !cfg.allowPartial) throw coreErrors.not_authenticated({ reason: 'Two-factor verification is pending: post your code to /api/auth/2fa/verify.' });
  if (p.pending && !cfg.allowPending) {
    throw p.pending === 'setup_2fa' ? coreErrors['2fa_setup_required']({ details: { permission } }) : coreErrors.password_change_required({ details: { permission } });
  }
  if (permission === 'auth') return;
  if (!p.permissions.has(permission)) throw coreErrors.forbidden({ permission }, { details: { permission } });
}
