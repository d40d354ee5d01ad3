import type { FastifyInstance } from 'fastify';
import { BasinError } from '../errors.js';

export interface BodyRateOptions {
  /** how often the body's progress is checked */
  windowMs: number;
  /** bytes that must arrive in each window until the body is complete */
  minBytesPerWindow: number;
}

/** 1 KB per 10 s: any real client, however slow its link, sends faster; a trickle of one byte every 5 s does not */
export const DEFAULT_BODY_RATE: BodyRateOptions = { windowMs: 10_000, minBytesPerWindow: 1024 };

/**
 * Ends a request whose body trickles in (slowloris on the body): while a request body is incomplete,
 * every window must bring at least `minBytesPerWindow` bytes, else the request is answered 408
 * `request_timeout` and its connection closed. Node's own requestTimeout (set in server.ts) bounds the
 * whole request as a backstop. The socket's byte counter is read, not the body stream, so the body
 * parsers are untouched.
 */
export function installSlowBodyGuard(http: FastifyInstance, opts: BodyRateOptions = DEFAULT_BODY_RATE): void {
  http.addHook('onRequest', async (req, reply) => {
    const raw = req.raw;
    const hasBody = Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;
    const socket = raw.socket;
    // inject() has no real socket to count bytes on
    if (!hasBody || raw.complete || typeof socket?.bytesRead !== 'number') return;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed || reply.sent || bodyRead.has(req)) return clearInterval(timer);
      const now = socket.bytesRead;
      if (now - seen >= opts.minBytesPerWindow) {
        seen = now;
        return;
      }
      clearInterval(timer);
      req.log.warn({ received_bytes: now }, 'request body too slow; answered 408');
      const err = new BasinError(408, 'request_timeout', `The request body arrived too slowly (less than ${opts.minBytesPerWindow} bytes in ${Math.round(opts.windowMs / 1000)} s); send it again.`);
      reply.code(408).header('connection', 'close').send(err.toBody());
      // the rest of the body will never be read: close once the answer is out
      reply.raw.once('finish', () => socket.destroy());
    }, opts.windowMs);
    timer.unref();
    raw.once('close', () => clearInterval(timer));
  });
  // the body has been parsed: the handler may take as long as it needs
  http.addHook('preValidation', async (req) => {
    bodyRead.add(req);
  });
}

const bodyRead = new WeakSet<object>();
