import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Authenticator, PermissionRegistry, Principal, Role } from '@basin/core';
import { bearerToken, clientIp, parseCookies } from './client.js';
import type { AuthService } from './service.js';

export const SESSION_COOKIE = 'basin_session';

/**
 * Core's `authenticator`: a bearer API key or the session cookie becomes a Principal whose permissions
 * are the role's in the permission registry. With auth disabled every caller is an admin (loopback only).
 */
export class BasinAuthenticator implements Authenticator {
  private readonly roleSets = new Map<Role, ReadonlySet<string>>();

  constructor(private readonly auth: AuthService, private readonly permissions: PermissionRegistry) {}

  async authenticate(req: FastifyRequest): Promise<Principal | null> {
    return this.authenticateHeaders(req.headers, req.socket?.remoteAddress ?? req.ip);
  }

  async authenticateHeaders(headers: IncomingHttpHeaders, _ip: string): Promise<Principal | null> {
    const s = this.auth.settings();
    if (!s.enabled) return { kind: 'auth_disabled', userId: null, email: null, role: 'admin', permissions: this.forRole('admin') };
    const bearer = bearerToken(headers);
    if (bearer !== undefined) {
      const key = this.auth.keys.lookup(bearer);
      const user = key ? this.auth.users.byId(key.user_id) : undefined;
      // a key acts with its creator's current role and stops when the creator is deactivated
      if (!key || !user || user.status !== 'active') return null;
      return { kind: 'api_key', userId: user.id, email: user.email, role: user.role, permissions: this.forRole(user.role), apiKeyId: key.id };
    }
    const token = parseCookies(headers.cookie)[SESSION_COOKIE];
    if (!token) return null;
    const session = this.auth.sessions.lookup(token);
    const user = session ? this.auth.users.byId(session.user_id) : undefined;
    if (!session || !user || user.status !== 'active') return null;
    const p: Principal = { kind: 'session', userId: user.id, email: user.email, role: user.role, permissions: this.forRole(user.role), sessionId: session.public_id };
    if (session.partial) p.partial = true;
    else {
      const pending = this.auth.pendingFor(user, session);
      if (pending) p.pending = pending;
    }
    return p;
  }

  /** the client address the auth plugin uses for lockout and rate limits */
  clientIp(req: FastifyRequest): string {
    return clientIp(req.socket?.remoteAddress ?? req.ip, req.headers, this.auth.settings().rate_limit.trusted_proxies);
  }

  private forRole(role: Role): ReadonlySet<string> {
    let set = this.roleSets.get(role);
    if (!set) this.roleSets.set(role, (set = new Set(this.permissions.forRole(role))));
    return set;
  }
}
