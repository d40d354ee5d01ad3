import http from 'node:http';
import https from 'node:https';

/**
 * One HTTP request to a running Basin server, for CLI commands. node:http rather than fetch: Node's
 * fetch compiles undici's llhttp WebAssembly on its first call, which cost a short command like
 * `basin status` ~40 ms of CPU and ~40 MB of peak memory.
 */
export function httpCall(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  const request = u.protocol === 'https:' ? https.request : http.request;
  const headers = init.body === undefined ? init.headers : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) };
  return new Promise((resolve, reject) => {
    const req = request(u, { method: init.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
