// Pieces of the REST runtime the vendor sources rely on: the nested-object rule, vendor rate-limit
// headers, vendor error classification, the OAuth token seam and the Google service-account JWT.
import assert from 'node:assert/strict';
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { after, test } from 'node:test';
import { createAuthenticator, flattenRecord, rateLimitResetDelay, RestClient, serviceAccountAssertion } from '@basin/sdk';
import { FakeVendor } from '@basin/sdk/testkit';
import { flattened } from '../src/rest/flatten.js';

test('flattenRecord: parent__child columns for three levels, arrays and deeper objects as JSON text, empty objects dropped', () => {
  assert.deepEqual(flattenRecord({ id: 1, a: { b: { c: { d: 1 } }, e: 'x' }, tags: ['x', 'y'], meta: {}, n: null }), {
    id: 1,
    a__b__c: '{"d":1}',
    a__e: 'x',
    tags: '["x","y"]',
    n: null,
  });
});

test('flattened: a flat plain record passes through uncopied; anything else is flattenRecord', () => {
  const flat = { id: 1, s: 'x', ok: true, n: null };
  assert.equal(flattened(flat), flat);
  const nested = { id: 1, a: { b: 2 }, tags: [1] };
  assert.deepEqual(flattened(nested), { id: 1, a__b: 2, tags: '[1]' });
  assert.deepEqual(flattened({ id: 1, gone: undefined }), { id: 1, gone: null });
  const at = new Date(0);
  assert.deepEqual(flattened({ at }), { at });
  // not a plain object: copied (own fields only), as flattenRecord does
  const row: Record<string, unknown> = Object.assign(Object.create({ inherited: 1 }), { id: 1 });
  assert.notEqual(flattened(row), row);
  assert.deepEqual(flattened(row), { id: 1 });
});

test('rateLimitResetDelay: GitHub epoch resets and delta seconds, only when nothing remains', () => {
  const now = 1_700_000_000_000;
  assert.equal(rateLimitResetDelay(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) }), now), 30_000);
  assert.equal(rateLimitResetDelay(new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '12' }), now), 12_000);
  assert.equal(rateLimitResetDelay(new Headers({ 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '12' }), now), null);
});

const fake = new FakeVendor({
  routes: {
    'GET /primary': (req, f) => (f.requests.filter((r) => r.path === '/primary').length === 1 ? { status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' }, body: { message: 'API rate limit exceeded' } } : { body: [{ id: 1 }] }),
    'GET /throttled': (req, f) => (f.requests.filter((r) => r.path === '/throttled').length === 1 ? { status: 400, body: { error: { code: 17, message: 'User request limit reached' } } } : { body: [{ id: 1 }] }),
    'GET /badtoken': () => ({ status: 400, body: { error: { code: 190, message: 'Invalid OAuth access token' } } }),
  },
  authorize: () => true,
});
await fake.start();
after(() => fake.stop());

function client(sleeps: number[]) {
  return new RestClient({
    baseUrl: fake.url,
    auth: { kind: 'oauth2_token', provider: 'Facebook', tokenEnv: 'FB_TOKEN' },
    secret: () => 'EAAsecret-token-value',
    sleep: async (ms) => void sleeps.push(ms),
    classifyError: (status, body) => {
      const code = (JSON.parse(body) as { error?: { code?: number } }).error?.code;
      return status === 400 && code === 190 ? 'auth' : status === 400 && code === 17 ? 'rate_limit' : null;
    },
  });
}

test('a 403 with x-ratelimit-remaining: 0 waits for the reset instead of failing as unauthorized', async () => {
  const sleeps: number[] = [];
  const res = await client(sleeps).get('/primary');
  assert.deepEqual(res.body, [{ id: 1 }]);
  assert.deepEqual(sleeps, [3000]);
});

test('classifyError: a vendor throttling code backs off; a vendor auth code names the OAuth variable, not the token', async () => {
  const sleeps: number[] = [];
  assert.deepEqual((await client(sleeps).get('/throttled')).body, [{ id: 1 }]);
  assert.equal(sleeps.length, 1);
  await assert.rejects(client([]).get('/badtoken'), (e: Error & { code?: string }) => e.code === 'unauthorized' && /Facebook OAuth access token in the environment variable FB_TOKEN/.test(e.message) && !e.message.includes('EAAsecret'));
});

test('serviceAccountAssertion: an RS256 JWT Google can verify, with issuer, scope and audience', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwt = serviceAccountAssertion({ client_email: 'sa@p.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }, ['s1', 's2'], 'https://oauth2.googleapis.com/token', 1000);
  const [h, c, sig] = jwt.split('.') as [string, string, string];
  assert.ok(createVerify('RSA-SHA256').update(`${h}.${c}`).verify(publicKey, Buffer.from(sig, 'base64url')));
  assert.deepEqual(JSON.parse(Buffer.from(c, 'base64url').toString()), { iss: 'sa@p.iam.gserviceaccount.com', scope: 's1 s2', aud: 'https://oauth2.googleapis.com/token', iat: 1000, exp: 4600 });
});

test('basic auth with a literal username names only the secret variable in hints', () => {
  const a = createAuthenticator({ kind: 'basic', username: 'me@example.com/token', usernameEnv: '', passwordEnv: 'ZENDESK_API_TOKEN', passwordField: 'api_token_env' }, { secret: () => 'x', fetch });
  assert.equal(a.hint(), 'the environment variable ZENDESK_API_TOKEN (api_token_env)');
});
