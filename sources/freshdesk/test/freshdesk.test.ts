// Freshdesk API v2 as documented (developers.freshdesk.com/api: "List All Tickets" updated_since,
// order_by, order_type, per_page <= 100, page; "Pagination": Link rel="next"; "Authentication":
// basic auth apikey:X; "Rate limit": 429 + Retry-After; 401 {"code":"invalid_credentials"}).
import { after } from 'node:test';
import { basicCredentials, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const KEY = 'fdFakeApiKey0123';
const iso = (i: number) => new Date(Date.UTC(2024, 6, 1) + i * 60_000).toISOString().replace('.000', '');

function paged(req: FakeRequest, rows: Record<string, unknown>[]) {
  const per = Number(req.query.get('per_page') ?? 30);
  if (per > 100) return { status: 400, body: { description: 'Validation failed', errors: [{ field: 'per_page', message: 'Has to be less than or equal to 100', code: 'invalid_value' }] } };
  const page = Number(req.query.get('page') ?? 1);
  const headers: Record<string, string> = {};
  if (page * per < rows.length) {
    const next = new URL(req.url);
    next.searchParams.set('page', String(page + 1));
    headers.link = `<${next.href}>; rel="next"`;
  }
  return { headers, body: rows.slice((page - 1) * per, page * per) };
}

const since = (req: FakeRequest, param: string, rows: Record<string, unknown>[]) => {
  const s = req.query.get(param);
  return s ? rows.filter((r) => String(r.updated_at) >= s) : rows;
};

const fake = new FakeVendor({
  routes: {
    // without updated_since Freshdesk lists only the last 30 days
    'GET /api/v2/tickets': (req, f) => paged(req, since(req, 'updated_since', f.table('tickets')).filter((t) => req.query.has('updated_since') || String(t.updated_at) >= '2024-07-01T04:00:00Z')),
    'GET /api/v2/contacts': (req, f) => paged(req, since(req, '_updated_since', f.table('contacts'))),
    'GET /api/v2/:name': (req, f) => paged(req, f.table(req.params.name!)),
  },
  authorize: (req) => {
    const c = basicCredentials(req);
    return c?.user === KEY && c.password === 'X';
  },
  unauthorized: () => ({ status: 401, body: { code: 'invalid_credentials', message: 'You have to be logged in to perform this action.' } }),
});
await fake.start();
after(() => fake.stop());

const ticket = (i: number) => ({ id: i + 1, subject: `T${i}`, status: 2, priority: 1, requester_id: 5, custom_fields: { cf_product: 'x' }, tags: [], created_at: iso(i), updated_at: iso(i) });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, domain: 'acme' }),
  env: { FRESHDESK_API_KEY: KEY },
  secretEnv: 'FRESHDESK_API_KEY',
  seed() {
    for (let i = 0; i < 330; i++) fake.table('tickets').push(ticket(i));
    for (let i = 0; i < 3; i++) fake.table('contacts').push({ id: 100 + i, name: `C${i}`, email: `c${i}@example.com`, created_at: iso(i), updated_at: iso(i) });
    fake.table('agents').push({ id: 1, available: true, contact: { name: 'Agent', email: 'agent@example.com' }, created_at: iso(0), updated_at: iso(0) });
    fake.table('companies').push({ id: 1, name: 'Acme', domains: ['acme.com'], created_at: iso(0), updated_at: iso(0) });
    fake.table('groups').push({ id: 1, name: 'Support' });
    fake.table('roles').push({ id: 1, name: 'Administrator', default: true });
  },
  incremental: {
    resource: 'tickets',
    addNewer: () => void fake.table('tickets').push(ticket(9000)),
    reads: (req) => req.path === '/api/v2/tickets',
    asksOnlyNewer: (req) => (req.query.get('updated_since') ?? '') >= iso(329),
  },
  addFieldMidStream() {
    for (const t of fake.table('tickets')) if (Number(t.id) > 200) t.due_by = iso(9999);
    return { resource: 'tickets', column: 'due_by' };
  },
  missingRequired: { config: {}, path: '/domain' },
});
