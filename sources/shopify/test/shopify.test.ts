// Shopify Admin REST API as documented (shopify.dev/docs/api/admin-rest, "Make paginated requests":
// Link: <...?limit=&page_info=...>; rel="next", filters only on the first request; "REST Admin API
// rate limits": 429 + Retry-After: 2.0, X-Shopify-Shop-Api-Call-Limit; X-Shopify-Access-Token).
import { after } from 'node:test';
import { FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'shpat_fake0123456789';
const V = '2024-07';
const iso = (i: number) => new Date(Date.UTC(2024, 1, 1) + i * 60_000).toISOString().replace('.000Z', '-00:00');

function list(req: FakeRequest, fake: FakeVendor) {
  const name = req.params.name!;
  const pageInfo = req.query.get('page_info');
  let filters: { min?: string; max?: string; from: number };
  if (pageInfo) {
    // page_info carries the filters of the first request; none may be sent alongside it
    if ([...req.query.keys()].some((k) => k !== 'page_info' && k !== 'limit')) return { status: 400, body: { errors: { page_info: 'Invalid value.' } } };
    filters = JSON.parse(Buffer.from(pageInfo, 'base64url').toString());
  } else filters = { min: req.query.get('updated_at_min') ?? undefined, max: req.query.get('updated_at_max') ?? undefined, from: 0 };
  const limit = Math.min(250, Number(req.query.get('limit') ?? 50));
  let rows = [...fake.table(name)].sort((a, b) => Date.parse(String(a.updated_at)) - Date.parse(String(b.updated_at)));
  if (filters.min) rows = rows.filter((r) => Date.parse(String(r.updated_at)) >= Date.parse(filters.min!));
  if (filters.max) rows = rows.filter((r) => Date.parse(String(r.updated_at)) <= Date.parse(filters.max!));
  const page = rows.slice(filters.from, filters.from + limit);
  const headers: Record<string, string> = { 'x-shopify-shop-api-call-limit': '1/40' };
  if (filters.from + limit < rows.length) {
    const next = Buffer.from(JSON.stringify({ ...filters, from: filters.from + limit })).toString('base64url');
    headers.link = `<${req.url.origin}${req.path}?limit=${limit}&page_info=${next}>; rel="next"`;
  }
  return { headers, body: { [name]: page } };
}

const fake = new FakeVendor({
  routes: { [`GET /admin/api/${V}/:name.json`]: list },
  authorize: (req) => req.headers['x-shopify-access-token'] === TOKEN,
  unauthorized: () => ({ status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } }),
  rateLimited: (_req, s) => ({ status: 429, headers: { 'retry-after': `${s}.0` }, body: { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' } }),
});
await fake.start();
after(() => fake.stop());

const customer = (i: number) => ({ id: 7_000_000 + i, email: `c${i}@example.com`, created_at: iso(i), updated_at: iso(i), default_address: { city: 'Ottawa', country_code: 'CA' }, tags: '' });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, shop: 'acme' }),
  env: { SHOPIFY_ACCESS_TOKEN: TOKEN },
  secretEnv: 'SHOPIFY_ACCESS_TOKEN',
  seed() {
    for (let i = 0; i < 600; i++) fake.table('customers').push(customer(i));
    for (let i = 0; i < 20; i++) fake.table('orders').push({ id: 9_000 + i, name: `#${1000 + i}`, financial_status: 'paid', total_price: '10.00', currency: 'CAD', customer: { id: 7_000_000 + i }, line_items: [{ id: 1, sku: 'X', quantity: 1 }], created_at: iso(i), updated_at: iso(i) });
    for (let i = 0; i < 5; i++) fake.table('products').push({ id: 100 + i, title: `Product ${i}`, variants: [{ id: 1, price: '5.00' }], created_at: iso(i), updated_at: iso(i) });
  },
  incremental: {
    resource: 'customers',
    addNewer: () => void fake.table('customers').push(customer(9000)),
    reads: (req) => req.path.endsWith('/customers.json') && !req.query.has('page_info'),
    asksOnlyNewer: (req) => Date.parse(req.query.get('updated_at_min') ?? '') >= Date.parse(iso(599)),
  },
  addFieldMidStream() {
    for (const c of fake.table('customers')) if (Number(c.id) >= 7_000_300) c.email_marketing_consent = { state: 'subscribed' };
    return { resource: 'customers', column: 'email_marketing_consent__state' };
  },
  missingRequired: { config: {}, path: '/shop' },
});
