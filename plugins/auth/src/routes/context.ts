import type { FastifyRequest } from 'fastify';
import { errors } from '@basin/core';
import type { BasinAuthenticator } from '../authenticator.js';
import type { AuthService, Actor } from '../service.js';
import type { SessionRow } from '../sessions.js';
import type { UserRow } from '../users.js';
import { authErrors } from '../errors.js';

/** What the route modules share: the service, the authenticator and request helpers. */
export class RouteContext {
  constructor(readonly auth: AuthService, readonly authn: BasinAuthenticator) {}

  ip(req: FastifyRequest): string {
    return this.authn.clientIp(req);
  }

  /** the signed-in user; routes that need a real account refuse the auth-disabled admin */
  user(req: FastifyRequest): UserRow {
    const p = req.principal;
    if (p?.kind === 'auth_disabled') throw authErrors.auth_disabled();
    const u = p?.userId ? this.auth.users.byId(p.userId) : undefined;
    if (!u) throw errors.notAuthenticated();
    return u;
  }

  /** the cookie session of the request (not an API key) */
  session(req: FastifyRequest): SessionRow {
    const id = req.principal?.sessionId;
    const s = id ? this.auth.sessions.byPublicId(id) : undefined;
    if (!s) throw authErrors.session_required();
    return s;
  }

  actor(req: FastifyRequest): Actor {
    return { id: req.principal?.userId ?? null, email: req.principal?.email ?? (req.principal?.kind === 'auth_disabled' ? 'auth_disabled' : null), ip: this.ip(req) };
  }

  /** absolute link on the origin the caller used */
  link(req: FastifyRequest, path: string): string {
    return `${req.protocol}://${req.host}${path}`;
  }
}
