// Stripe's list API as documented (https://docs.stripe.com/api/pagination, /api/customers/list):
// GET /v1/<objects>?limit=&starting_after=&created[gte]=&created[lt]=, newest first, answered as
// {"object":"list","url":...,"has_more":bool,"data":[...]}; bearer secret key; 401 with an error object.
import { after } from 'node:test';
import { bearerToken, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const KEY = 'sk_test_51FakeKeyAbcdef1234';
const T0 = 1_717_200_000;

function list(req: FakeRequest, fake: FakeVendor) {
  const object = req.params.object!;
  const limit = Math.min(100, Number(req.query.get('limit') ?? 10));
  const gte = req.query.get('created[gte]');
  const lt = req.query.get('created[lt]');
  let rows = [...fake.table(object)].sort((a, b) => Number(b.created) - Number(a.created));
  if (gte) rows = rows.filter((r) => Number(r.created) >= Number(gte));
  if (lt) rows = rows.filter((r) => Number(r.created) < Number(lt));
  const after = req.query.get('starting_after');
  if (after) rows = rows.slice(rows.findIndex((r) => r.id === after) + 1);
  return { body: { object: 'list', url: `/v1/${object}`, has_more: rows.length > limit, data: rows.slice(0, limit) } };
}

const fake = new FakeVendor({
  routes: { 'GET /v1/:object': list },
  authorize: (req) => bearerToken(req) === KEY,
  unauthorized: () => ({ status: 401, body: { error: { message: `Invalid API Key provided: sk_test_****${KEY.slice(-4)}`, type: 'invalid_request_error' } } }),
});
await fake.start();
after(() => fake.stop());

let seq = 0;
const customer = (i: number, extra: Record<string, unknown> = {}) => ({
  id: `cus_${String(++seq).padStart(6, '0')}`,
  object: 'customer',
  created: T0 + i * 60,
  email: `c${i}@example.com`,
  livemode: false,
  address: { city: 'Berlin', country: 'DE' },
  metadata: {},
  ...extra,
});

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, endpoints: ['customers', 'invoices'] }),
  resources: ['customers', 'invoices'],
  env: { STRIPE_SECRET_KEY: KEY },
  secretEnv: 'STRIPE_SECRET_KEY',
  seed() {
    for (let i = 0; i < 250; i++) fake.table('customers').push(customer(i));
    for (let i = 0; i < 30; i++) fake.table('invoices').push({ id: `in_${i}`, object: 'invoice', created: T0 + i, amount_due: 1000 + i, currency: 'eur', lines: { object: 'list', data: [{ id: `il_${i}` }] } });
  },
  incremental: {
    resource: 'customers',
    addNewer: () => void fake.table('customers').push(customer(10_000)),
    reads: (req) => req.path === '/v1/customers',
    asksOnlyNewer: (req) => Number(req.query.get('created[gte]')) >= T0 + 249 * 60,
  },
  addFieldMidStream() {
    // newest first: the 100 newest customers (the first page) lack the field, older ones have it
    for (const c of fake.table('customers')) if (Number(c.created) < T0 + 100 * 60) c.tax_exempt = 'none';
    return { resource: 'customers', column: 'tax_exempt' };
  },
  missingRequired: { config: { secret_key_env: '' }, path: '/secret_key_env' },
});
