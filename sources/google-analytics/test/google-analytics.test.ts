// GA4 Data API v1beta as documented (developers.google.com/analytics/devguides/reporting/data/v1/rest:
// properties.runReport POST /v1beta/properties/{id}:runReport {dateRanges,dimensions,metrics,limit,
// offset,orderBys} -> {dimensionHeaders,metricHeaders:[{name,type}],rows:[{dimensionValues,
// metricValues}],rowCount}; properties.getMetadata; service-account JWT auth; 401 UNAUTHENTICATED).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, FakeVendor, fakeServiceAccount, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source, { reportRecords } from '../src/index.js';

const PROP = '123456789';
let account: ReturnType<typeof fakeServiceAccount>;
const day = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const compact = (d: string) => d.replace(/-/g, '');
const TYPES: Record<string, string> = { activeUsers: 'TYPE_INTEGER', sessions: 'TYPE_INTEGER', screenPageViews: 'TYPE_INTEGER', conversions: 'TYPE_FLOAT' };

function runReport(req: FakeRequest, fake: FakeVendor) {
  const b = req.body ?? {};
  const [range] = b.dateRanges ?? [];
  const resolve = (d: string) => (d === 'yesterday' ? day(400) : /daysAgo$/.test(d) ? day(0) : d);
  if (!range) return { status: 400, body: { error: { code: 400, message: 'dateRanges required', status: 'INVALID_ARGUMENT' } } };
  const from = resolve(range.startDate);
  const to = resolve(range.endDate);
  const dims: string[] = (b.dimensions ?? []).map((d: { name: string }) => d.name);
  const mets: string[] = (b.metrics ?? []).map((m: { name: string }) => m.name);
  const all = fake.table('days').filter((r) => String(r.date) >= from && String(r.date) <= to);
  const offset = Number(b.offset ?? 0);
  const limit = Number(b.limit ?? 10_000);
  const rows = all.slice(offset, offset + limit).map((r) => ({
    dimensionValues: dims.map((d) => ({ value: d === 'date' ? compact(String(r.date)) : String(r[d] ?? '(not set)') })),
    metricValues: mets.map((m) => (r[m] === null ? {} : { value: String(r[m] ?? 0) })),
  }));
  return { body: { dimensionHeaders: dims.map((name) => ({ name })), metricHeaders: mets.map((name) => ({ name, type: TYPES[name] ?? 'TYPE_INTEGER' })), ...(rows.length ? { rows } : {}), rowCount: all.length, kind: 'analyticsData#runReport' } };
}

const fake = new FakeVendor({
  routes: {
    'POST /token': (req, f) => account.tokenRoute(req, f),
    [`GET /v1beta/properties/${PROP}/metadata`]: () => ({ body: { name: `properties/${PROP}/metadata`, dimensions: [{ apiName: 'date', uiName: 'Date', category: 'Time' }], metrics: [{ apiName: 'sessions', uiName: 'Sessions', type: 'TYPE_INTEGER' }] } }),
    [`POST /v1beta/properties/${PROP}:runReport`]: runReport,
  },
  public: (req) => req.path === '/token',
  authorize: (req) => bearerToken(req) === account.accessToken,
  unauthorized: () => ({ status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } }),
});
await fake.start();
after(() => fake.stop());
account = fakeServiceAccount(`${fake.url}/token`, 'https://www.googleapis.com/auth/analytics.readonly');

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, property_id: PROP, start_date: '2024-01-01' }),
  resources: ['metadata', 'reports'],
  env: { GOOGLE_ANALYTICS_CREDENTIALS: account.keyJson },
  secretEnv: 'GOOGLE_ANALYTICS_CREDENTIALS',
  seed() {
    for (let i = 0; i < 302; i++) fake.table('days').push({ date: day(i), activeUsers: i, sessions: i * 2, screenPageViews: i * 3, conversions: 0.5 });
  },
  incremental: {
    resource: 'reports',
    addNewer: () => void fake.table('days').push({ date: day(350), activeUsers: 1, sessions: 1, screenPageViews: 1, conversions: 1 }),
    reads: (req) => req.path.endsWith(':runReport'),
    asksOnlyNewer: (req) => req.body.dateRanges[0].startDate >= day(301),
  },
  addFieldMidStream() {
    // a metric that only has values from some day on
    for (const r of fake.table('days')) r.conversions = String(r.date) >= day(100) ? 2.5 : null;
    return { resource: 'reports', column: 'conversions' };
  },
  emptyResources: ['reports'],
  missingRequired: { config: {}, path: '/property_id' },
});

test('google_analytics: runReport rows become typed records with ISO dates', () => {
  const recs = reportRecords({
    dimensionHeaders: [{ name: 'date' }, { name: 'country' }],
    metricHeaders: [{ name: 'sessions', type: 'TYPE_INTEGER' }, { name: 'bounceRate', type: 'TYPE_FLOAT' }],
    rows: [{ dimensionValues: [{ value: '20240131' }, { value: 'Germany' }], metricValues: [{ value: '12' }, { value: '0.25' }] }],
  });
  assert.deepEqual(recs, [{ date: '2024-01-31', country: 'Germany', sessions: 12, bounceRate: 0.25 }]);
});
