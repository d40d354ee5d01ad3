// Matomo Reporting API as documented (developer.matomo.org/api-reference/reporting-api:
// index.php?module=API&method=X&idSite=&period=day&date=A,B&format=JSON&token_auth=; a date range
// answers {"YYYY-MM-DD": ...}; Live.getLastVisitsDetails filter_limit, filter_offset, minTimestamp;
// errors are HTTP 200 {"result":"error","message":...}).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { collectRead, createTestContext, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'anonymous0123456789abcdef0123456';
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};

function api(req: FakeRequest, fake: FakeVendor) {
  const q = req.query;
  if (q.get('module') !== 'API' || q.get('format') !== 'JSON') return { body: { result: 'error', message: 'Module not found' } };
  if (q.get('idSite') !== '1') return { body: { result: 'error', message: "You can't access this resource as it requires 'view' access for the website id = 2." } };
  const method = q.get('method');
  if (method === 'SitesManager.getSiteFromId') return { body: { idsite: '1', name: 'Example', main_url: 'https://example.com' } };
  if (method === 'Live.getLastVisitsDetails') {
    const min = Number(q.get('minTimestamp') ?? 0);
    const rows = fake.table('visits').filter((v) => Number(v.serverTimestamp) >= min);
    const offset = Number(q.get('filter_offset') ?? 0);
    return { body: rows.slice(offset, offset + Number(q.get('filter_limit') ?? 100)) };
  }
  const [from, to] = (q.get('date') ?? '').split(',') as [string, string];
  const out: Record<string, unknown> = {};
  for (const d of days(from, to)) {
    const rows = fake.table(method!).filter((r) => r.date === d).map(({ date: _d, ...r }) => r);
    out[d] = method === 'VisitsSummary.get' ? (rows[0] ?? []) : rows;
  }
  return { body: out };
}

const fake = new FakeVendor({
  routes: { 'GET /index.php': api },
  authorize: (req) => req.query.get('token_auth') === TOKEN,
  unauthorized: () => ({ status: 200, body: { result: 'error', message: "You can't access this resource as it requires 'view' access for the website id = 1. (token_auth is invalid)" } }),
});
await fake.start();
after(() => fake.stop());

const dayN = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const T0 = Date.UTC(2024, 0, 1) / 1000;
const visit = (i: number) => ({ idSite: '1', idVisit: String(i + 1), visitIp: '203.0.113.0', serverTimestamp: T0 + i * 600, actions: '3', actionDetails: [{ type: 'action', url: 'https://example.com/' }], visitDuration: '120' });

runVendorSuite({
  source,
  fake,
  config: () => ({ url: fake.url, site_id: 1, start_date: dayN(0), reports: ['VisitsSummary.get', 'Actions.getPageUrls'] }),
  env: { MATOMO_TOKEN: TOKEN },
  secretEnv: 'MATOMO_TOKEN',
  seed() {
    for (let i = 0; i < 10; i++) fake.table('VisitsSummary.get').push({ date: dayN(i), nb_visits: 100 + i, nb_actions: 300 + i, bounce_rate: '40%' });
    for (let i = 0; i < 10; i++) fake.table('Actions.getPageUrls').push({ date: dayN(i), label: 'index', nb_hits: 10 + i }, { date: dayN(i), label: 'blog', nb_hits: 5 });
    for (let i = 0; i < 250; i++) fake.table('visits').push(visit(i));
  },
  incremental: {
    resource: 'visits',
    addNewer: () => void fake.table('visits').push(visit(1000)),
    reads: (req) => req.query.get('method') === 'Live.getLastVisitsDetails',
    asksOnlyNewer: (req) => Number(req.query.get('minTimestamp')) >= T0 + 249 * 600,
  },
  addFieldMidStream() {
    for (const v of fake.table('visits').slice(150)) v.campaignName = 'spring';
    return { resource: 'visits', column: 'campaignName' };
  },
  missingRequired: { config: { url: 'https://analytics.example.com' }, path: '/site_id' },
});

test('matomo: reports are one row per day and report row; the next sync asks from the last day on', async () => {
  fake.empty();
  fake.clearFaults();
  for (let i = 0; i < 3; i++) fake.table('Actions.getPageUrls').push({ date: dayN(i), label: 'index', nb_hits: i });
  const cfg = { url: fake.url, site_id: 1, start_date: dayN(0), reports: ['Actions.getPageUrls'], resources: ['reports'] };
  const opts = { env: { MATOMO_TOKEN: TOKEN }, endDate: dayN(5) };
  const first = await collectRead(source, createTestContext(source, cfg, opts), []);
  assert.deepEqual(first.records.reports!.map((r) => [r.report, r.date, r.label, r.nb_hits]), [0, 1, 2].map((i) => ['Actions.getPageUrls', dayN(i), 'index', i]));
  const mark = fake.requests.length;
  await collectRead(source, createTestContext(source, cfg, opts), [], first.state);
  assert.equal(fake.since(mark)[0]!.query.get('date'), `${dayN(2)},${dayN(5)}`);
});
