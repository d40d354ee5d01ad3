import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, coreErrors } from '@basin/core';
import { bearerToken, isLoopbackIp, ownOrigin } from './client.js';
import { SESSION_COOKIE, type BasinAuthenticator } from './authenticator.js';
import type { RateLimiter } from './rate-limit.js';
import type { AuthService } from './service.js';
import { authErrors } from './errors.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** public endpoints that set a session cookie follow the CSRF header rule too (DECISIONS §2) */
const ALWAYS_CHECKED = new Set(['/api/auth/login', '/api/auth/accept-invite', '/api/auth/setup']);
export const LOGIN_PATH = '/api/auth/login';

/**
 * Root onRequest hook, after core's authentication hook: rate limits (login and general `/api/*`,
 * loopback exempt) and the CSRF rule for cookie-authenticated state-changing requests.
 */
export function installRequestGuard(http: FastifyInstance, auth: AuthService, authn: BasinAuthenticator, limiter: RateLimiter): void {
  http.addHook('onRequest', async (req: FastifyRequest) => {
    const s = auth.settings();
    if (!s.enabled) return;
    const path = req.url.split('?')[0]!;
    if (s.rate_limit.enabled && path.startsWith('/api/')) {
      const ip = authn.clientIp(req);
      if (!isLoopbackIp(ip)) {
        const login = path === LOGIN_PATH;
        const lim = login ? s.rate_limit.login : s.rate_limit.api;
        const wait = limiter.hit(login ? 'login' : 'api', ip, lim.requests, lim.window_seconds);
        if (wait > 0) throw errors.rateLimited(wait);
      }
    }
    if (STATE_CHANGING.has(req.method) && bearerToken(req.headers) === undefined) {
      const cookieAuthed = req.principal?.kind === 'session' || ALWAYS_CHECKED.has(path);
      if (cookieAuthed && !sameOrigin(req, s.rate_limit.trusted_proxies)) {
        throw coreErrors.csrf_rejected();
      }
    }
  });
}

function sameOrigin(req: FastifyRequest, trusted: readonly string[]): boolean {
  if (req.headers['x-requested-with'] === 'XMLHttpRequest') return true;
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return false;
  return origin === ownOrigin(req.socket?.remoteAddress ?? req.ip, req.headers, isEncrypted(req), trusted);
}

const isEncrypted = (req: FastifyRequest): boolean => !!(req.socket as { encrypted?: boolean } | undefined)?.encrypted;

/** true when the browser reached Basin over HTTPS (directly or through a trusted proxy): the cookie gets Secure */
export function servedOverHttps(req: FastifyRequest, trusted: readonly string[]): boolean {
  return ownOrigin(req.socket?.remoteAddress ?? req.ip, req.headers, isEncrypted(req), trusted).startsWith('https:');
}

export function setSessionCookie(reply: FastifyReply, req: FastifyRequest, auth: AuthService, token: string, partial: boolean): void {
  const s = auth.settings();
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: servedOverHttps(req, s.rate_limit.trusted_proxies),
    path: '/',
    maxAge: partial ? 300 : s.session_max_days * 86_400,
  });
}

export function clearSessionCookie(reply: FastifyReply, req: FastifyRequest, auth: AuthService): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: servedOverHttps(req, auth.settings().rate_limit.trusted_proxies), path: '/' });
}
