// Workable SPI v3 as documented (workable.readme.io/reference: "GET /candidates" limit,
// created_after, updated_after, since_id; {"candidates":[...],"paging":{"next":"https://...?since_id=.."}};
// jobs, members, recruiters, stages; bearer token; 401 {"error":"Not authorized"}).
import { after } from 'node:test';
import { bearerToken, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'wkbl_fake_token_0123';
const iso = (i: number) => new Date(Date.UTC(2024, 8, 1) + i * 60_000).toISOString();

function sinceId(req: FakeRequest, name: string, rows: Record<string, unknown>[]) {
  const limit = Number(req.query.get('limit') ?? 50);
  const after = req.query.get('updated_after');
  let list = after ? rows.filter((r) => String(r.updated_at) >= after) : rows;
  const since = req.query.get('since_id');
  if (since) list = list.slice(list.findIndex((r) => r.id === since));
  const page = list.slice(0, limit);
  const next = list[limit];
  const url = new URL(req.url);
  if (next) url.searchParams.set('since_id', String(next.id));
  return { body: { [name]: page, ...(next ? { paging: { next: url.href } } : {}) } };
}

const fake = new FakeVendor({
  routes: { 'GET /spi/v3/:name': (req, f) => sinceId(req, req.params.name!, f.table(req.params.name!)) },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { error: 'Not authorized' } }),
});
await fake.start();
after(() => fake.stop());

const candidate = (i: number) => ({ id: `c${String(i).padStart(5, '0')}`, name: `Candidate ${i}`, email: `c${i}@example.com`, stage: 'Applied', job: { title: 'Engineer', shortcode: 'ENG01' }, created_at: iso(i), updated_at: iso(i) });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: `${fake.url}/spi/v3`, subdomain: 'acme' }),
  env: { WORKABLE_ACCESS_TOKEN: TOKEN },
  secretEnv: 'WORKABLE_ACCESS_TOKEN',
  seed() {
    for (let i = 0; i < 220; i++) fake.table('candidates').push(candidate(i));
    fake.table('jobs').push({ id: 'j1', title: 'Engineer', shortcode: 'ENG01', state: 'published', department: 'R&D', location: { country: 'Greece', city: 'Athens' }, created_at: iso(0), updated_at: iso(0) });
    fake.table('members').push({ id: 'm1', name: 'Hiring Manager', email: 'hm@example.com', role: 'admin' });
    fake.table('recruiters').push({ id: 'r1', name: 'Recruiter', email: 'r@example.com' });
    fake.table('stages').push({ id: 's1', slug: 'applied', name: 'Applied', kind: 'applied', position: 0 });
  },
  incremental: {
    resource: 'candidates',
    addNewer: () => void fake.table('candidates').push(candidate(9000)),
    reads: (req) => req.path === '/spi/v3/candidates' && !req.query.has('since_id'),
    asksOnlyNewer: (req) => (req.query.get('updated_after') ?? '') >= iso(219),
  },
  addFieldMidStream() {
    for (const c of fake.table('candidates').slice(150)) c.disqualified = false;
    return { resource: 'candidates', column: 'disqualified' };
  },
  missingRequired: { config: {}, path: '/subdomain' },
});
