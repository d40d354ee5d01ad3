import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Authenticator, Logger, PermissionRegistry, Principal } from '@basin/core';
import { allowedHostsFromEnv, hostnameOf, isLoopbackName } from '@basin/core';
import type { WsHub } from './hub.js';

export const WS_PATH = '/ws';

/** Answers an upgrade with a plain HTTP error and closes the socket. */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  const text = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** A cookie-authenticated socket must come from our own origin (cross-site WebSocket hijacking). */
function foreignOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

export interface UpgradeDeps {
  server: Server;
  hub: WsHub;
  log: Logger;
  permissions: PermissionRegistry;
  /** undefined when Basin runs without the auth plugin (auth-disabled, loopback only) */
  authenticator: () => Authenticator | undefined;
}

/**
 * Handles HTTP upgrades for /ws: authenticates from the upgrade's headers (session cookie or
 * bearer API key), refuses anonymous callers with 401 before any WebSocket handshake, and hands
 * accepted sockets to the hub. Upgrades for other paths are left to other listeners.
 */
export function attachUpgrade(d: UpgradeDeps): { close(): void } {
  // `ws` is loaded on the first upgrade, not at start-up (its module graph is the heaviest here)
  let wss: Promise<WebSocketServer> | null = null;
  const server = () => (wss ??= import('ws').then(({ WebSocketServer: Wss }) => new Wss({ noServer: true, maxPayload: 4096, perMessageDeflate: false })));
  const authenticate = async (req: IncomingMessage): Promise<Principal | null> => {
    const auth = d.authenticator();
    if (!auth) return { kind: 'auth_disabled', userId: null, email: null, role: 'admin', permissions: new Set(d.permissions.forRole('admin')) };
    if (!auth.authenticateHeaders) return null;
    return auth.authenticateHeaders(req.headers, req.socket.remoteAddress ?? '');
  };
  d.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== WS_PATH) {
      if (d.server.listenerCount('upgrade') === 1) refuse(socket, 404, 'not_found', 'No WebSocket endpoint here; use /ws.');
      return;
    }
    socket.on('error', () => socket.destroy());
    // the same Host rule as HTTP (core's host-origin-guard): a loopback server answers loopback names only
    const bound = d.server.address();
    const name = hostnameOf(req.headers.host);
    if (bound && typeof bound === 'object' && isLoopbackName(bound.address) && !isLoopbackName(name) && !allowedHostsFromEnv().includes(name)) {
      return refuse(socket, 403, 'host_not_allowed', `This server answers on loopback names only, not "${name}".`);
    }
    authenticate(req)
      .then((p) => {
        if (!p || p.partial) return refuse(socket, 401, 'not_authenticated', 'Authentication required: log in or send an API key as "Authorization: Bearer <key>".');
        if (p.pending) return refuse(socket, 403, 'forbidden', 'Finish setting up your account (2FA or password change) first.');
        // with auth disabled there is no cookie to check, so a page on another origin could otherwise read the events
        if ((p.kind === 'session' || p.kind === 'auth_disabled') && foreignOrigin(req)) return refuse(socket, 403, 'csrf_rejected', 'WebSocket connections with a session cookie must come from this server’s own origin.');
        if (d.hub.full()) return refuse(socket, 503, 'too_many_connections', 'Too many live connections; retry later.');
        return server().then((w) => w.handleUpgrade(req, socket, head, (ws) => d.hub.add(ws, p)));
      })
      .catch((err) => {
        d.log.error({ err }, 'WebSocket upgrade failed');
        refuse(socket, 500, 'internal_error', 'Internal server error; see the server log for details.');
      });
  });
  return { close: () => void wss?.then((w) => w.close()) };
}
