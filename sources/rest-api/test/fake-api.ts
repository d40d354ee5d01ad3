import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface User {
  id: number;
  name: string;
  updated_at: string;
}

/**
 * A small API like many SaaS ones: bearer auth, `/v1/users` paged by page number with an
 * inclusive `updated_since` filter, `/v1/events` paged by a cursor in the body, `/v1/flaky`
 * failing with 503 a configurable number of times.
 */
export class FakeApi {
  users: User[] = [];
  events = Array.from({ length: 25 }, (_, i) => ({ event_id: `e${i + 1}`, kind: i % 2 ? 'click' : 'view' }));
  token = 'secret-token-abc';
  flakyFailures = 0;
  requests: URL[] = [];
  private server = http.createServer((req, res) => this.handle(req, res));
  url = '';

  constructor(users = 23) {
    for (let i = 1; i <= users; i++) this.addUser(`user ${i}`);
  }

  addUser(name: string): User {
    const id = this.users.length + 1;
    const u = { id, name, updated_at: new Date(Date.UTC(2024, 0, 1) + id * 3_600_000).toISOString() };
    this.users.push(u);
    return u;
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this.url;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  private send(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url!, 'http://x');
    this.requests.push(url);
    if (req.headers.authorization !== `Bearer ${this.token}`) return this.send(res, 401, { error: 'invalid token', got: req.headers.authorization ?? null });
    const q = url.searchParams;
    switch (url.pathname) {
      case '/v1/users': {
        const since = q.get('updated_since');
        const rows = since ? this.users.filter((u) => u.updated_at >= since) : this.users;
        const size = Number(q.get('per_page') ?? 10);
        const page = Number(q.get('page') ?? 1);
        return this.send(res, 200, { data: rows.slice((page - 1) * size, page * size), meta: { total_pages: Math.ceil(rows.length / size) } });
      }
      case '/v1/events': {
        const start = Number(q.get('cursor') ?? 0);
        const next = start + 10 < this.events.length ? String(start + 10) : null;
        return this.send(res, 200, { items: this.events.slice(start, start + 10), next_cursor: next });
      }
      case '/v1/plain': // an offset API that says nothing about pages
        return this.send(res, 200, this.users.slice(Number(q.get('offset') ?? 0)).slice(0, Number(q.get('limit') ?? 10)));
      case '/v1/flaky':
        if (this.flakyFailures > 0) {
          this.flakyFailures--;
          return this.send(res, 503, { error: `upstream overloaded, ${this.flakyFailures} failures left` });
        }
        return this.send(res, 200, [{ ok: true }]);
      default:
        return this.send(res, 404, { error: 'not found' });
    }
  }
}
