import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import source from '../src/index.js';
import { FakeApi } from './fake-api.js';

const api = new FakeApi();
const baseUrl = await api.start();
after(() => api.stop());
const env = { API_TOKEN: api.token };

const config = {
  base_url: baseUrl,
  auth_token_env: 'API_TOKEN',
  endpoints: [
    { path: '/users', params: { per_page: 10 }, primary_key: 'id', cursor_field: 'updated_at', cursor_param: 'updated_since', paginator: { type: 'page_number', total_pages_path: 'meta.total_pages' } },
    { path: 'events', name: 'events' },
  ],
};

runSourceContract(source, config, {
  name: 'saas',
  env,
  resources: ['users'],
  failingConfig: { ...config, auth_token_env: 'WRONG_TOKEN_VAR' },
  addData: () => void api.addUser('late joiner'),
});

function ctxFor(cfg: unknown, extra: Parameters<typeof createTestContext>[2] = {}) {
  return createTestContext(source, cfg, { name: 'saas', env, ...extra });
}

describe('rest_api', () => {
  before(() => {
    api.requests.length = 0;
  });

  test('one resource per endpoint; every page read; records batched by batch_size', async () => {
    const ctx = ctxFor({ ...config, batch_size: 10 });
    const resources = await source.discover(ctx);
    assert.deepEqual(resources.map((r) => [r.name, r.writeDisposition, r.primaryKey]), [
      ['users', 'merge', ['id']],
      ['events', 'replace', undefined],
    ]);
    const r = await collectRead(source, ctx, resources);
    assert.equal(r.records.users!.length, api.users.length);
    assert.deepEqual(r.records.events!.map((e) => e.event_id), api.events.map((e) => e.event_id), 'cursor-in-body pagination auto-detected');
    const userBatches = r.items.filter((i) => i.kind === 'records' && i.resource === 'users').map((i: any) => i.records.length);
    assert.ok(userBatches.every((n) => n <= 10) && userBatches.length >= 2, `batches ${userBatches}`);
    assert.equal(r.state.users!.cursor, api.users.at(-1)!.updated_at);
    assert.equal(r.state.events, undefined, 'an endpoint without cursor_field keeps no state');
  });

  test('incremental: the committed cursor is sent back and only newer rows come', async () => {
    const first = await collectRead(source, ctxFor(config), [{ name: 'users' }]);
    const u = api.addUser('newest');
    api.requests.length = 0;
    const second = await collectRead(source, ctxFor(config), [{ name: 'users' }], first.state);
    assert.equal(api.requests[0]!.searchParams.get('updated_since'), first.state.users!.cursor);
    assert.deepEqual(second.records.users!.map((r) => r.id), [u.id]);
    // a start date applies when there is no state; a full refresh ignores the state
    api.requests.length = 0;
    await collectRead(source, ctxFor(config, { startDate: '2024-01-01' }), [{ name: 'users' }]);
    assert.equal(api.requests[0]!.searchParams.get('updated_since'), '2024-01-01');
    api.requests.length = 0;
    const full = await collectRead(source, ctxFor(config, { fullRefresh: true }), [{ name: 'users' }], first.state);
    assert.equal(api.requests[0]!.searchParams.get('updated_since'), null);
    assert.equal(full.records.users!.length, api.users.length);
  });

  test('401: the error names the variable to fix and hides the token', async () => {
    const ctx = ctxFor(config, { env: { API_TOKEN: 'stale-token-value' } });
    await assert.rejects(collectRead(source, ctx, [{ name: 'users' }]), (err: any) => {
      assert.equal(err.code, 'unauthorized');
      assert.match(err.message, /API_TOKEN \(auth_token_env\)/);
      assert.ok(!err.message.includes('stale-token-value'), err.message);
      return true;
    });
  });

  test('a missing variable fails naming it', async () => {
    const ctx = ctxFor(config, { env: {} });
    await assert.rejects(collectRead(source, ctx, [{ name: 'users' }]), /API_TOKEN/);
  });

  test('5xx is retried; after max_retries the error carries the last body excerpt', async () => {
    const flaky = { ...config, max_retries: 1, endpoints: [{ path: 'flaky' }] };
    api.flakyFailures = 1;
    const ok = await collectRead(source, ctxFor(flaky), [{ name: 'flaky' }]);
    assert.deepEqual(ok.records.flaky, [{ ok: true }]);
    api.flakyFailures = 5;
    await assert.rejects(collectRead(source, ctxFor(flaky), [{ name: 'flaky' }]), (err: any) => {
      assert.equal(err.code, 'upstream_error');
      assert.match(err.message, /503 after 2 attempts/);
      assert.match(err.message, /upstream overloaded, 3 failures left/);
      return true;
    });
  });

  test('auto pagination that finds nothing warns when the one page looks cut at the page size', async () => {
    const ctx = ctxFor({ ...config, endpoints: [{ path: 'plain', params: { limit: 10 } }] });
    const r = await collectRead(source, ctx, [{ name: 'plain' }]);
    assert.equal(r.records.plain!.length, 10);
    assert.ok(ctx.logs.some((l) => l.level === 'warn' && /set "paginator"/.test(l.msg)), JSON.stringify(ctx.logs));
    // with the right paginator every row comes
    const all = await collectRead(source, ctxFor({ ...config, endpoints: [{ path: 'plain', paginator: { type: 'offset', limit: 10 } }] }), [{ name: 'plain' }]);
    assert.equal(all.records.plain!.length, api.users.length);
  });

  test('check retries at most once and reports the failure instead of throwing', async () => {
    api.flakyFailures = 10;
    api.requests.length = 0;
    const res = await source.check(ctxFor({ ...config, endpoints: [{ path: 'flaky' }] }));
    assert.equal(res.ok, false);
    assert.match(res.message!, /503 after 2 attempts/);
    assert.equal(api.requests.length, 2);
    api.flakyFailures = 0;
  });

  test('cross-field rules: each auth_type names its missing settings; names must be unique', () => {
    const v = (c: Record<string, unknown>) => source.validateConfig!(createTestContext(source, c).config);
    assert.deepEqual(v({ base_url: baseUrl, endpoints: [{ path: 'a' }] }), [{ path: '/auth_token_env', message: 'auth_type bearer needs auth_token_env' }]);
    assert.deepEqual(
      v({ base_url: baseUrl, auth_type: 'oauth2_client_credentials', client_id_env: 'X', endpoints: [{ path: 'a' }] }).map((p) => p.path),
      ['/access_token_url', '/client_secret_env'],
    );
    assert.deepEqual(v({ base_url: baseUrl, auth_type: 'none', endpoints: [{ path: 'a/b' }, { path: '/a/b/' }] }).map((p) => p.path), ['/endpoints/1/name']);
    assert.throws(() => createTestContext(source, { base_url: 'ftp://x', endpoints: [] }), /base_url|endpoints/);
    assert.throws(() => createTestContext(source, { base_url: baseUrl, endpoints: [{ path: 'a', paramz: {} }] }), /config does not match/);
  });

  test('api_key in the query string reaches the API but never the logs or errors', async () => {
    const seen: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response(JSON.stringify({ error: 'nope' }), { status: 500 });
    };
    const ctx = ctxFor({ base_url: 'http://127.0.0.1:9/v1', auth_type: 'api_key', api_key_name: 'key', api_key_location: 'query', auth_token_env: 'API_TOKEN', max_retries: 1, endpoints: [{ path: 'x' }] }, { fetch: fakeFetch });
    await assert.rejects(collectRead(source, ctx, [{ name: 'x' }]), (err: any) => !err.message.includes(api.token));
    assert.ok(seen[0]!.includes(`key=${api.token}`));
    assert.ok(!JSON.stringify(ctx.logs).includes(api.token));
  });
});
