import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A real local HTTP server standing in for a webhook receiver; `script` sets answers per path (default 200). */
export async function startReceiver(): Promise<{ url: string; received: Received[]; script: Map<string, number[]>; close: () => Promise<void>; waitFor: (n: number) => Promise<void> }> {
  const received: Received[] = [];
  const script = new Map<string, number[]>();
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      received.push({ path, headers: req.headers, body: data ? JSON.parse(data) : null });
      const status = script.get(path)?.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script,
    close: () => new Promise((r) => server.close(() => r())),
    waitFor: async (n) => {
      while (received.length < n) await new Promise<void>((r) => waiters.push(r));
    },
  };
}

/** A URL where nothing listens (a receiver that is down). */
export async function deadUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}/hook`;
}
