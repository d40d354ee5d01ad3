import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { IncrementalCursor, RestClient, batchRecords, detectPaginator, nextLink, paginate, parseRetryAfter, type AuthSpec } from '../src/index.js';

type Handler = (req: http.IncomingMessage, url: URL, body: string, res: http.ServerResponse) => void;
let handler: Handler = (_q, _u, _b, res) => res.end('{}');
let server: http.Server;
let base = '';
const seen: Array<{ url: URL; headers: http.IncomingHttpHeaders; body: string }> = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      seen.push({ url, headers: req.headers, body });
      handler(req, url, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
after(() => server.close());

const env: Record<string, string> = { TOKEN: 'tok-secret-123', KEY: 'key-secret-456', USER: 'alice', PASS: 'pw-secret-789', CID: 'client-1', CSECRET: 'csecret-000' };
const secret = (n: string) => {
  if (!(n in env)) throw new Error(`missing ${n}`);
  return env[n]!;
};
const sleeps: number[] = [];
const fastSleep = async (ms: number) => void sleeps.push(ms);
const client = (auth: AuthSpec, extra: Partial<ConstructorParameters<typeof RestClient>[0]> = {}) =>
  new RestClient({ baseUrl: base, auth, secret, sleep: fastSleep, ...extra });
const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('auth kinds', () => {
  test('bearer, api_key in header and query, basic, custom header and none put credentials where they belong', async () => {
    handler = (_q, _u, _b, res) => json(res, 200, { ok: true });
    seen.length = 0;
    await client({ kind: 'bearer', tokenEnv: 'TOKEN' }).get('/things');
    await client({ kind: 'api_key', name: 'X-Api-Key', location: 'header', keyEnv: 'KEY' }).get('things');
    await client({ kind: 'api_key', name: 'api_key', location: 'query', keyEnv: 'KEY' }).get('things', { a: 1 });
    await client({ kind: 'basic', usernameEnv: 'USER', passwordEnv: 'PASS' }).get('things');
    await client({ kind: 'custom_header', name: 'X-Custom-Auth', valueEnv: 'TOKEN' }).get('things');
    await client({ kind: 'none' }).get('things');
    assert.equal(seen[0]!.url.pathname, '/api/things');
    assert.equal(seen[0]!.headers.authorization, 'Bearer tok-secret-123');
    assert.equal(seen[1]!.headers['x-api-key'], 'key-secret-456');
    assert.equal(seen[2]!.url.searchParams.get('api_key'), 'key-secret-456');
    assert.equal(seen[2]!.url.searchParams.get('a'), '1');
    assert.equal(seen[3]!.headers.authorization, `Basic ${Buffer.from('alice:pw-secret-789').toString('base64')}`);
    assert.equal(seen[4]!.headers['x-custom-auth'], 'tok-secret-123');
    assert.equal(seen[5]!.headers.authorization, undefined);
  });

  test('oauth2 client credentials: one token reused, refreshed when it expires and after a 401', async () => {
    let issued = 0;
    let valid = '';
    handler = (req, url, body, res) => {
      if (url.pathname === '/oauth/token') {
        const form = new URLSearchParams(body);
        assert.equal(form.get('grant_type'), 'client_credentials');
        assert.equal(form.get('client_id'), 'client-1');
        assert.equal(form.get('client_secret'), 'csecret-000');
        valid = `access-${++issued}`;
        return json(res, 200, { access_token: valid, expires_in: 3600, token_type: 'bearer' });
      }
      if (req.headers.authorization !== `Bearer ${valid}`) return json(res, 401, { error: 'expired' });
      json(res, 200, [{ id: 1 }]);
    };
    let now = 1_000_000;
    const { createAuthenticator } = await import('../src/rest/auth.js');
    const auth = createAuthenticator({ kind: 'oauth2_client_credentials', tokenUrl: `${base.replace('/api', '')}/oauth/token`, clientIdEnv: 'CID', clientSecretEnv: 'CSECRET' }, { secret, fetch, now: () => now });
    const c = client({ kind: 'none' }, { auth });
    await Promise.all([c.get('a'), c.get('b')]);
    assert.equal(issued, 1, 'concurrent first requests share one token request');
    now += 3_550_000; // within the last minute of the token's life
    await c.get('c');
    assert.equal(issued, 2);
    valid = 'revoked-by-server';
    const r = await c.get<unknown[]>('d');
    assert.equal(issued, 3, 'a 401 fetches a fresh token once');
    assert.deepEqual(r.body, [{ id: 1 }]);
  });

  test('a 401 names the environment variable to fix and never shows the secret', async () => {
    handler = (req, _u, _b, res) => json(res, 401, { message: `bad token ${req.headers.authorization}` });
    await assert.rejects(client({ kind: 'bearer', tokenEnv: 'TOKEN' }).get('x'), (err: any) => {
      assert.equal(err.code, 'unauthorized');
      assert.match(err.message, /TOKEN \(auth_token_env\)/);
      assert.ok(!err.message.includes('tok-secret-123'), err.message);
      return true;
    });
    handler = (_q, url, _b, res) => json(res, 403, { echo: url.search });
    await assert.rejects(client({ kind: 'api_key', name: 'k', location: 'query', keyEnv: 'KEY' }).get('x'), (err: any) => {
      assert.match(err.message, /KEY/);
      assert.ok(!err.message.includes('key-secret-456'), err.message);
      return true;
    });
  });
});

describe('retries', () => {
  test('5xx is retried with growing backoff, then succeeds', async () => {
    let n = 0;
    handler = (_q, _u, _b, res) => (++n < 3 ? json(res, 503, { error: 'busy' }) : json(res, 200, { data: [1] }));
    sleeps.length = 0;
    const r = await client({ kind: 'none' }).get('x');
    assert.equal(n, 3);
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[1]! >= sleeps[0]! / 2 && sleeps[1]! >= 500, `backoff ${sleeps}`);
    assert.deepEqual(r.body, { data: [1] });
  });

  test('5xx after all retries fails with the last body excerpt', async () => {
    let n = 0;
    handler = (_q, _u, _b, res) => json(res, 502, { error: `gateway exploded #${++n}` });
    await assert.rejects(client({ kind: 'none' }, { retry: { retries: 2 } }).get('x'), (err: any) => {
      assert.equal(err.code, 'upstream_error');
      assert.match(err.message, /502 after 3 attempts/);
      assert.match(err.message, /gateway exploded #3/);
      return true;
    });
  });

  test('429 waits what Retry-After says', async () => {
    let n = 0;
    handler = (_q, _u, _b, res) => (++n === 1 ? json(res, 429, {}, { 'retry-after': '7' }) : json(res, 200, []));
    sleeps.length = 0;
    await client({ kind: 'none' }).get('x');
    assert.deepEqual(sleeps, [7000]);
    assert.equal(parseRetryAfter(new Date(Date.parse('2026-01-01T00:00:10Z')).toUTCString(), Date.parse('2026-01-01T00:00:00Z')), 10_000);
  });

  test('a Retry-After beyond the limit fails at once as rate_limited', async () => {
    handler = (_q, _u, _b, res) => json(res, 429, {}, { 'retry-after': '86400' });
    await assert.rejects(client({ kind: 'none' }).get('x'), (err: any) => err.code === 'rate_limited');
  });

  test('network errors are retried', async () => {
    let n = 0;
    handler = (req, _u, _b, res) => (++n < 3 ? req.socket.destroy() : json(res, 200, { ok: 1 }));
    const r = await client({ kind: 'none' }).get('x');
    assert.equal(n, 3);
    assert.deepEqual(r.body, { ok: 1 });
    await assert.rejects(new RestClient({ baseUrl: 'http://127.0.0.1:1/', sleep: fastSleep, retry: { retries: 1 } }).get('x'), (err: any) => err.code === 'upstream_unreachable');
  });

  test('same-origin redirects are followed with credentials; redirects to another host are refused', async () => {
    handler = (req, url, _b, res) => {
      if (url.pathname === '/api/old') return void res.writeHead(301, { location: '/api/new?x=1' }).end();
      if (url.pathname === '/api/away') return void res.writeHead(302, { location: 'http://other.example/api/new' }).end();
      json(res, 200, { path: url.pathname, x: url.searchParams.get('x'), key: req.headers['x-api-key'] ?? null });
    };
    const c = client({ kind: 'api_key', name: 'X-Api-Key', location: 'header', keyEnv: 'KEY' });
    assert.deepEqual((await c.get('old')).body, { path: '/api/new', x: '1', key: 'key-secret-456' });
    await assert.rejects(c.get('away'), (err: any) => err.code === 'redirect_off_origin' && /other\.example/.test(err.message));
  });

  test('a 4xx other than 401/403/429 fails at once; non-JSON answers are named', async () => {
    let n = 0;
    handler = (_q, _u, _b, res) => (n++, json(res, 404, { error: 'no such endpoint' }));
    await assert.rejects(client({ kind: 'none' }).get('x'), (err: any) => err.code === 'http_error' && /404/.test(err.message) && /no such endpoint/.test(err.message));
    assert.equal(n, 1);
    handler = (_q, _u, _b, res) => res.end('<html>hi</html>');
    await assert.rejects(client({ kind: 'none' }).get('x'), (err: any) => err.code === 'invalid_response');
  });
});

const ROWS = Array.from({ length: 23 }, (_, i) => ({ id: i + 1 }));
async function all(c: RestClient, path: string, opts: Parameters<typeof paginate>[2]) {
  const out: number[] = [];
  let pages = 0;
  for await (const p of paginate(c, path, opts)) {
    pages++;
    out.push(...p.records.map((r) => r.id as number));
  }
  return { ids: out, pages };
}

describe('paginators', () => {
  test('page number, offset, cursor, Link header and next URL each read every row once', async () => {
    handler = (_q, url, _b, res) => {
      const p = url.searchParams;
      const mode = url.pathname.split('/').pop();
      if (mode === 'pages') {
        const page = Number(p.get('page') ?? 1);
        return json(res, 200, { data: ROWS.slice((page - 1) * 10, page * 10), total_pages: 3 });
      }
      if (mode === 'offset') {
        const o = Number(p.get('offset'));
        return json(res, 200, ROWS.slice(o, o + Number(p.get('limit'))));
      }
      if (mode === 'cursor') {
        const c = Number(p.get('cursor') ?? 0);
        return json(res, 200, { items: ROWS.slice(c, c + 10), meta: { next_cursor: c + 10 < ROWS.length ? String(c + 10) : null } });
      }
      if (mode === 'link') {
        const page = Number(p.get('page') ?? 1);
        const headers: Record<string, string> = page < 3 ? { link: `<${base}/link?page=${page + 1}>; rel="next", <${base}/link?page=3>; rel="last"` } : {};
        return json(res, 200, ROWS.slice((page - 1) * 10, page * 10), headers);
      }
      if (mode === 'nexturl') {
        const page = Number(p.get('page') ?? 1);
        return json(res, 200, { results: ROWS.slice((page - 1) * 10, page * 10), next: page < 3 ? `/api/nexturl?page=${page + 1}` : null });
      }
    };
    const c = client({ kind: 'none' });
    const ids = ROWS.map((r) => r.id);
    assert.deepEqual(await all(c, 'pages', { paginator: { type: 'page_number', total_pages_path: 'total_pages' } }), { ids, pages: 3 });
    assert.deepEqual(await all(c, 'offset', { paginator: { type: 'offset', limit: 10 } }), { ids, pages: 3 });
    assert.deepEqual(await all(c, 'cursor', { paginator: { type: 'cursor', cursor_path: 'meta.next_cursor' } }), { ids, pages: 3 });
    assert.deepEqual(await all(c, 'link', { paginator: { type: 'link_header' } }), { ids, pages: 3 });
    assert.deepEqual(await all(c, 'nexturl', { paginator: { type: 'next_url' } }), { ids, pages: 3 });
    // auto-detection finds the same for each style
    for (const mode of ['pages', 'cursor', 'link', 'nexturl']) assert.deepEqual(await all(c, mode, {}), { ids, pages: 3 }, mode);
  });

  test('a next link to another host is refused (credentials would follow it)', async () => {
    handler = (_q, _u, _b, res) => json(res, 200, { data: [{ id: 1 }], next: 'http://attacker.example/steal?page=2' });
    await assert.rejects(all(client({ kind: 'bearer', tokenEnv: 'TOKEN' }), 'x', { paginator: { type: 'next_url' } }), (err: any) => err.code === 'pagination_off_origin' && /attacker\.example/.test(err.message));
  });

  test('a paginator pointing back at a page already read stops', async () => {
    handler = (_q, _u, _b, res) => json(res, 200, { data: [{ id: 1 }], next: '/api/loop' });
    assert.deepEqual(await all(client({ kind: 'none' }), 'loop', { paginator: { type: 'next_url' } }), { ids: [1], pages: 1 });
  });

  test('Link header parsing and detection', () => {
    assert.equal(nextLink('<https://a/x?page=2>; rel="next", <https://a/x?page=9>; rel="last"'), 'https://a/x?page=2');
    assert.equal(nextLink('<https://a/x?page=9>; rel="last"'), null);
    const res = (body: unknown) => ({ status: 200, headers: new Headers(), url: 'http://x/', body });
    assert.deepEqual(detectPaginator(res({ data: [], next_page_token: 'abc' })), { type: 'cursor', cursor_path: 'next_page_token', cursor_param: 'page_token' });
    assert.deepEqual(detectPaginator(res([1, 2])), { type: 'none' });
  });
});

describe('incremental cursor and batching', () => {
  test('filters what an earlier run loaded, keeps new rows at the boundary, honours lookback', () => {
    const run = { fullRefresh: false };
    const c1 = new IncrementalCursor({ field: 'ts', param: 'since' }, undefined, { ...run, startDate: '2024-01-01' });
    assert.deepEqual(c1.params(), { since: '2024-01-01' });
    c1.filter([{ id: 1, ts: '2024-01-02T00:00:00Z' }, { id: 2, ts: '2024-01-03T00:00:00Z' }]);
    const s1 = c1.state()!;
    assert.equal(s1.cursor, '2024-01-03T00:00:00Z');
    const c2 = new IncrementalCursor({ field: 'ts', param: 'since' }, s1 as any, run);
    assert.deepEqual(c2.params(), { since: '2024-01-03T00:00:00Z' });
    const kept = c2.filter([{ id: 1, ts: '2024-01-02T00:00:00Z' }, { id: 2, ts: '2024-01-03T00:00:00Z' }, { id: 3, ts: '2024-01-03T00:00:00Z' }, { id: 4, ts: '2024-01-04T00:00:00Z' }]);
    assert.deepEqual(kept.map((r) => r.id), [3, 4]);
    const back = new IncrementalCursor({ field: 'ts', param: 'since' }, { cursor: '2024-01-10', boundary: [] }, { ...run, lookbackDays: 3 });
    assert.deepEqual(back.params(), { since: '2024-01-07' });
    const full = new IncrementalCursor({ field: 'ts', param: 'since', initialValue: '2000-01-01' }, s1 as any, { fullRefresh: true });
    assert.deepEqual(full.params(), { since: '2000-01-01' });
  });

  test('batches regroup small pages and pass big ones through', async () => {
    async function* pages() {
      for (let i = 0; i < 5; i++) yield Array.from({ length: 3 }, (_, j) => ({ i, j }));
      yield Array.from({ length: 20 }, () => ({}));
    }
    const sizes: number[] = [];
    for await (const b of batchRecords(pages(), 10)) sizes.push(b.length);
    assert.deepEqual(sizes, [12, 3, 20]);
  });
});
