import http, { type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface HttpCallResult {
  status: number;
  text: string;
  /** the response's headers (`set-cookie` is an array) */
  headers: IncomingHttpHeaders;
}

/**
 * One HTTP request, for CLI commands talking to a running Basin server and for Basin talking to the
 * companions it runs on loopback (Superset, marimo). node:http rather than fetch: Node's fetch loads
 * undici and compiles its llhttp WebAssembly on its first call, which cost a short command like
 * `basin status` ~40 ms of CPU and ~40 MB of peak memory, and a server ~20 ms and ~7 MB. node:https
 * (with TLS) is loaded for an https URL only. `timeoutMs` bounds the whole exchange.
 */
export function httpCall(url: string, init: { method: string; headers?: Record<string, string>; body?: string; timeoutMs?: number }): Promise<HttpCallResult> {
  const u = new URL(url);
  const request = u.protocol === 'https:' ? (require('node:https') as typeof import('node:https')).request : http.request;
  const base = init.headers ?? {};
  const headers = init.body === undefined ? base : { ...base, 'content-length': String(Buffer.byteLength(init.body)) };
  return new Promise((resolve, reject) => {
    const req = request(u, { method: init.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers });
      });
      res.on('error', fail);
    });
    function fail(err: Error): void {
      clearTimeout(timer);
      reject(err);
    }
    const timer = init.timeoutMs === undefined ? undefined : setTimeout(() => req.destroy(new Error(`${init.method} ${url} did not answer within ${init.timeoutMs} ms`)), init.timeoutMs);
    req.on('error', fail);
    req.end(init.body);
  });
}
