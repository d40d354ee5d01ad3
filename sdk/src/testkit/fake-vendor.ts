import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a fake vendor's handler sees it. */
export interface FakeRequest {
  method: string;
  /** the path without the query string */
  path: string;
  url: URL;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** the parsed JSON (or form) body of a POST/PATCH; undefined for a GET */
  body: any;
  /** `:name` segments of the matched route */
  params: Record<string, string>;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type FakeHandler = (req: FakeRequest, fake: FakeVendor) => FakeReply;

export interface FakeVendorOptions {
  /** `"GET /v1/customers"` or `"POST /v1/search"` to handler; `:name` matches one path segment, a trailing `*` the rest */
  routes: Record<string, FakeHandler>;
  /** true when the request carries valid credentials */
  authorize(req: FakeRequest): boolean;
  /** the vendor's own answer to bad credentials (default 401 `{"error":"unauthorized"}`) */
  unauthorized?: (req: FakeRequest) => FakeReply;
  /** the vendor's own rate-limit answer (default 429 with Retry-After) */
  rateLimited?: (req: FakeRequest, retryAfterSeconds: number) => FakeReply;
  /** requests that are not checked for credentials (token endpoints) */
  public?: (req: FakeRequest) => boolean;
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

/**
 * A local HTTP server standing in for a vendor's cloud API in tests: declared routes, a credential
 * check on every request, the request log, and injected faults (a storm of 429s with Retry-After,
 * 5xx answers). Handlers reproduce the vendor's documented request and response shapes; the data
 * lives in `tables`, so a test can empty the account or add records between syncs.
 */
export class FakeVendor {
  readonly tables: Record<string, Record<string, unknown>[]> = {};
  readonly requests: FakeRequest[] = [];
  url = '';
  private server: http.Server | null = null;
  private routes: Route[];
  private hold: ((req: FakeRequest) => boolean) | null = null;
  private faults: Array<{ kind: '429'; retryAfter: number } | { kind: '5xx'; status: number }> = [];

  constructor(private readonly opts: FakeVendorOptions) {
    this.routes = Object.entries(opts.routes).map(([key, handler]) => {
      const [method, path] = key.split(' ') as [string, string];
      const names: string[] = [];
      const src = path
        .split('/')
        .map((seg) => {
          if (seg === '*') return '(.*)';
          // `:name` matches up to the next `/` (or `.` when the segment goes on, as in `:name.json`)
          return seg.replace(/:([A-Za-z_]\w*)|([^:]+)/g, (_m, name: string | undefined, lit: string | undefined) => {
            if (name) {
              names.push(name);
              return seg.length > name.length + 1 ? '([^/.]+)' : '([^/]+)';
            }
            return lit!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          });
        })
        .join('/');
      if (path.endsWith('*')) names.push('rest');
      return { method, pattern: new RegExp(`^${src}$`), names, handler };
    });
  }

  /** the rows of a table (created empty) */
  table(name: string): Record<string, unknown>[] {
    return (this.tables[name] ??= []);
  }

  /** empties every table: an account with no data */
  empty(): void {
    for (const k of Object.keys(this.tables)) this.tables[k] = [];
  }

  /** the next `count` requests answer 429 with `Retry-After: retryAfterSeconds` */
  rateLimit(count: number, retryAfterSeconds = 1): void {
    for (let i = 0; i < count; i++) this.faults.push({ kind: '429', retryAfter: retryAfterSeconds });
  }

  /** the next `count` requests answer `status` (a server error) */
  failNext(count: number, status = 503): void {
    for (let i = 0; i < count; i++) this.faults.push({ kind: '5xx', status });
  }

  clearFaults(): void {
    this.faults = [];
    this.hold = null;
  }

  /** requests matching `when` get no answer at all (a hung upstream, e.g. to kill a sync mid-load) */
  holdWhen(when: (req: FakeRequest) => boolean): void {
    this.hold = when;
  }

  /** requests logged since `mark` (a previous `requests.length`) */
  since(mark: number): FakeRequest[] {
    return this.requests.slice(mark);
  }

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    await new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    this.server = null;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url || 'http://127.0.0.1');
    let body: any;
    if (raw) {
      const type = String(req.headers['content-type'] ?? '');
      body = type.includes('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(raw)) : safeJson(raw);
    }
    const fr: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, url, query: url.searchParams, headers: req.headers, body, params: {} };
    if (this.hold?.(fr)) {
      this.requests.push(fr);
      return; // never answered; stop() drops the connection
    }
    const reply = this.answer(fr);
    const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(text);
  }

  private answer(req: FakeRequest): FakeReply {
    const route = this.routes.find((r) => r.method === req.method && r.pattern.test(req.path));
    if (route) {
      const m = route.pattern.exec(req.path)!;
      route.names.forEach((n, i) => (req.params[n] = decodeURIComponent(m[i + 1]!)));
    }
    const isPublic = this.opts.public?.(req) ?? false;
    if (!isPublic) this.requests.push(req);
    const fault = isPublic ? undefined : this.faults.shift();
    if (fault?.kind === '429') {
      return this.opts.rateLimited?.(req, fault.retryAfter) ?? { status: 429, headers: { 'retry-after': String(fault.retryAfter) }, body: { error: 'rate_limited' } };
    }
    if (fault?.kind === '5xx') return { status: fault.status, body: { error: 'service unavailable' } };
    if (!isPublic && !this.opts.authorize(req)) return this.opts.unauthorized?.(req) ?? { status: 401, body: { error: 'unauthorized' } };
    if (!route) return { status: 404, body: { error: `no route ${req.method} ${req.path}` } };
    return route.handler(req, this);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `Authorization: Basic` user and password of a request, or null. */
export function basicCredentials(req: FakeRequest): { user: string; password: string } | null {
  const h = String(req.headers.authorization ?? '');
  if (!h.startsWith('Basic ')) return null;
  const decoded = Buffer.from(h.slice(6), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? null : { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(req: FakeRequest, scheme = 'Bearer'): string | null {
  const h = String(req.headers.authorization ?? '');
  return h.startsWith(`${scheme} `) ? h.slice(scheme.length + 1) : null;
}
