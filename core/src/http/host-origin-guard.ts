import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BasinError } from '../errors.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1: names that only ever mean this machine */
export function isLoopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** the host name of a Host header value (`[::1]:8800` → `::1`, `Example.org:80` → `example.org`) */
export function hostnameOf(host: string | undefined): string {
  const h = (host ?? '').trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  return h.replace(/:\d*$/, '');
}

/** Names besides the loopback ones a loopback server answers to (a reverse proxy's public name): BASIN_ALLOWED_HOSTS=a.example,b.example */
export const allowedHostsFromEnv = (): string[] =>
  (process.env.BASIN_ALLOWED_HOSTS ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

export interface HostOriginGuardOptions {
  /** the address the server listens on; null before listen (inject) */
  listenHost: () => string | null;
  isLoopback: (host: string) => boolean;
}

/**
 * Two checks against cross-site use of a server on this machine, in every auth mode:
 * - Host (DNS rebinding): a server listening on loopback answers only requests addressed to a loopback
 *   name, the address it listens on, or a name in BASIN_ALLOWED_HOSTS; anything else is 403
 *   `host_not_allowed`. A page on evil.example that rebinds its name to 127.0.0.1 sends `Host: evil.example`.
 * - Origin for writes with auth disabled (the auth plugin applies DECISIONS §2's rule to cookie writes
 *   when auth is on): a state-changing request without a Bearer token whose Origin is another origin
 *   (or `null`), or that the browser marks `Sec-Fetch-Site: cross-site`/`same-site`, is 403 `csrf_rejected`.
 *   Browsers always send Origin on cross-origin POST/PUT/PATCH/DELETE; scripts (curl, the CLI) send none.
 */
export function installHostOriginGuard(http: FastifyInstance, opts: HostOriginGuardOptions): void {
  http.addHook('onRequest', async (req: FastifyRequest) => {
    const listen = opts.listenHost();
    if (listen !== null && opts.isLoopback(listen)) {
      const name = hostnameOf(req.headers.host);
      const listenName = hostnameOf(listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen);
      if (!isLoopbackName(name) && name !== listenName && !allowedHostsFromEnv().includes(name)) {
        throw new BasinError(403, 'host_not_allowed', `This server answers on loopback names only, not "${name}". Use http://127.0.0.1 or http://localhost, or add the name to BASIN_ALLOWED_HOSTS.`, { host: name });
      }
    }
    if (req.principal?.kind !== 'auth_disabled' || !STATE_CHANGING.has(req.method)) return;
    if (/^Bearer\s/i.test(req.headers.authorization ?? '')) return;
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const foreignOrigin = origin !== undefined && origin !== `${req.protocol}://${req.headers.host ?? ''}`;
    if (foreignOrigin || site === 'cross-site' || site === 'same-site') {
      throw new BasinError(403, 'csrf_rejected', 'Cross-site request refused: writes must come from this server’s own pages, a script without an Origin header, or carry an API key.', origin ? { origin } : undefined);
    }
  });
}
