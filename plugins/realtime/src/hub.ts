import type { WebSocket } from 'ws';
import type { AnyEventEnvelope, Logger, Principal } from '@basin/core';

/** SPEC "WebSocket events" and the permission a client needs to receive each. */
export const WS_EVENT_PERMISSIONS: Readonly<Record<string, string>> = {
  sync_started: 'source.view',
  sync_progress: 'source.view',
  sync_completed: 'source.view',
  sync_failed: 'source.view',
  csv_uploaded: 'source.view',
  freshness_update: 'source.view',
  tx_run_started: 'tx.view',
  tx_run_completed: 'tx.view',
  schema_drift_detected: 'governance.view',
  // beyond SPEC's table: the initial sync of a deployed server (plugins/deploy), for admins
  initial_sync_started: 'platform.manage',
  initial_sync_progress: 'platform.manage',
  initial_sync_completed: 'platform.manage',
};

export interface HubOptions {
  /** a client with more than this many bytes queued is dropped (slow consumer) */
  maxBufferedBytes: number;
  /** ping interval; a client that has not answered the previous ping is terminated */
  pingIntervalMs: number;
  /** most sockets held at once */
  maxClients: number;
}
export const DEFAULT_HUB_OPTIONS: HubOptions = { maxBufferedBytes: 1024 * 1024, pingIntervalMs: 30_000, maxClients: 2000 };

interface Client {
  ws: WebSocket;
  principal: Principal;
  alive: boolean;
}

/** The connected /ws clients: fan-out of bus events filtered by role, keep-alive and slow-client shedding. */
export class WsHub {
  readonly options: HubOptions;
  private readonly clients = new Set<Client>();
  private pinger?: NodeJS.Timeout;
  /** counters for health and the benchmark */
  readonly stats = { sent: 0, droppedSlow: 0, timedOut: 0 };

  constructor(private readonly log: Logger, options: Partial<HubOptions> = {}) {
    this.options = { ...DEFAULT_HUB_OPTIONS, ...options };
  }

  get size(): number {
    return this.clients.size;
  }

  full(): boolean {
    return this.clients.size >= this.options.maxClients;
  }

  add(ws: WebSocket, principal: Principal): void {
    const c: Client = { ws, principal, alive: true };
    this.clients.add(c);
    ws.on('pong', () => (c.alive = true));
    ws.on('close', () => this.clients.delete(c));
    ws.on('error', () => this.clients.delete(c));
    // clients only listen; anything they send is ignored (the server's maxPayload bounds it)
    ws.on('message', () => {});
    this.startPinging();
  }

  /** Sends one bus event to every client allowed to see it; serialised once. */
  broadcast(env: AnyEventEnvelope): void {
    const permission = WS_EVENT_PERMISSIONS[env.type];
    if (!permission || !this.clients.size) return;
    const data = JSON.stringify({ ...(env.payload as object), type: env.type, timestamp: env.timestamp });
    for (const c of this.clients) {
      if (!c.principal.permissions.has(permission)) continue;
      if (c.ws.readyState !== c.ws.OPEN) continue;
      if (c.ws.bufferedAmount > this.options.maxBufferedBytes) {
        // a slow reader must not make the server buffer without bound
        this.stats.droppedSlow++;
        this.log.warn({ user: c.principal.email, buffered: c.ws.bufferedAmount }, 'dropping slow WebSocket client');
        this.drop(c, 1013, 'too slow: messages were piling up');
        continue;
      }
      c.ws.send(data);
      this.stats.sent++;
    }
  }

  /** Closes the sockets of a session (logout) or of every session of a user. */
  closeWhere(pred: (p: Principal) => boolean, reason: string): number {
    let n = 0;
    for (const c of this.clients) {
      if (!pred(c.principal)) continue;
      this.drop(c, 4001, reason);
      n++;
    }
    return n;
  }

  /** One keep-alive round: terminate clients that missed the last ping, ping the rest. */
  pingRound(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        this.stats.timedOut++;
        this.clients.delete(c);
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      try {
        c.ws.ping();
      } catch {
        this.clients.delete(c);
      }
    }
    if (!this.clients.size) this.stopPinging();
  }

  close(): void {
    this.stopPinging();
    for (const c of this.clients) this.drop(c, 1001, 'server shutting down');
  }

  private drop(c: Client, code: number, reason: string): void {
    this.clients.delete(c);
    try {
      c.ws.close(code, reason);
    } catch {
      /* already closing */
    }
    // a client that does not complete the close handshake is cut off
    setTimeout(() => c.ws.terminate(), 2000).unref();
  }

  private startPinging(): void {
    if (this.pinger) return;
    this.pinger = setInterval(() => this.pingRound(), this.options.pingIntervalMs);
    this.pinger.unref();
  }

  private stopPinging(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = undefined;
  }
}
