// Google Ads API as documented (developers.google.com/google-ads/api/rest: customers.googleAds.search
// POST /v17/customers/{id}/googleAds:search {"query","pageToken"} -> {"results":[{"campaign":{"id",
// "name"},"segments":{"date"},"metrics":{"impressions":"12","costMicros":"1230000"}}],"nextPageToken"},
// headers developer-token and login-customer-id; int64 as strings; 401 UNAUTHENTICATED).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, FakeVendor, fakeServiceAccount, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source, { resultRecord, withDateRange } from '../src/index.js';

const CUSTOMER = '1234567890';
const DEV = 'devtoken-FAKE-0123';
const PAGE = 100; // the real page size is 10,000; smaller here so paging is exercised
let account: ReturnType<typeof fakeServiceAccount>;
const day = (i: number) => new Date(Date.now() - (200 - i) * 86_400_000).toISOString().slice(0, 10);

function search(req: FakeRequest, fake: FakeVendor) {
  if (req.headers['developer-token'] !== DEV) return { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED', details: [{ errors: [{ errorCode: { authenticationError: 'DEVELOPER_TOKEN_INVALID' } }] }] } } };
  const query = String(req.body?.query ?? '');
  if (query === 'SELECT customer.id FROM customer LIMIT 1') return { body: { results: [{ customer: { resourceName: `customers/${CUSTOMER}`, id: CUSTOMER } }] } };
  const m = /FROM (\w+)(?: WHERE segments\.date BETWEEN '([\d-]+)' AND '([\d-]+)')?$/.exec(query);
  if (!m) return { status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: `unparsed query: ${query}` } } };
  const [resource, from, to] = [m[1], m[2], m[3]];
  const rows = fake.table(resource!).filter((r) => !from || (String((r.segments as any).date) >= from && String((r.segments as any).date) <= to!));
  const start = Number(req.body?.pageToken ?? 0);
  const next = start + PAGE < rows.length ? String(start + PAGE) : undefined;
  return { body: { results: rows.slice(start, start + PAGE), ...(next ? { nextPageToken: next } : {}), fieldMask: 'campaign.id,segments.date,metrics.clicks' } };
}

const fake = new FakeVendor({
  routes: {
    'POST /token': (req, f) => account.tokenRoute(req, f),
    [`POST /v17/customers/${CUSTOMER}/googleAds:search`]: search,
  },
  public: (req) => req.path === '/token',
  authorize: (req) => bearerToken(req) === account.accessToken,
  unauthorized: () => ({ status: 401, body: { error: { code: 401, message: 'Request is missing required authentication credential.', status: 'UNAUTHENTICATED' } } }),
});
await fake.start();
after(() => fake.stop());
account = fakeServiceAccount(`${fake.url}/token`, 'https://www.googleapis.com/auth/adwords');

const stat = (i: number, campaign = 1) => ({ campaign: { resourceName: `customers/${CUSTOMER}/campaigns/${campaign}`, id: String(campaign), name: `C${campaign}` }, segments: { date: day(i) }, metrics: { impressions: String(100 + i), clicks: String(i), costMicros: '1230000', conversions: 0.5 } });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, property_id: '123-456-7890', queries: [{ name: 'campaign_stats', query: 'SELECT campaign.id, campaign.name, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros FROM campaign' }], start_date: day(0) }),
  resources: ['campaign_stats'],
  env: { GOOGLE_ADS_CREDENTIALS: account.keyJson, GOOGLE_ADS_DEVELOPER_TOKEN: DEV },
  secretEnv: 'GOOGLE_ADS_CREDENTIALS',
  seed() {
    for (let i = 0; i < 150; i++) for (const c of [1, 2]) fake.table('campaign').push(stat(i, c));
  },
  incremental: {
    resource: 'campaign_stats',
    addNewer: () => void fake.table('campaign').push(stat(180)),
    reads: (req) => req.path.endsWith('googleAds:search'),
    asksOnlyNewer: (req) => String(req.body?.query).includes(`BETWEEN '${day(149)}'`),
  },
  addFieldMidStream() {
    for (const r of fake.table('campaign').slice(120)) (r.campaign as Record<string, unknown>).status = 'ENABLED';
    return { resource: 'campaign_stats', column: 'campaign_status' };
  },
  missingRequired: { config: {}, path: '/property_id' },
});

test('google_ads: results become GAQL-named columns; the date range joins the query', () => {
  assert.deepEqual(resultRecord(stat(0)), { campaign_resource_name: `customers/${CUSTOMER}/campaigns/1`, campaign_id: '1', campaign_name: 'C1', segments_date: day(0), metrics_impressions: 100, metrics_clicks: 0, metrics_cost_micros: 1230000, metrics_conversions: 0.5 });
  assert.equal(withDateRange('SELECT a FROM campaign ORDER BY a', '2024-01-01', '2024-01-31'), "SELECT a FROM campaign WHERE segments.date BETWEEN '2024-01-01' AND '2024-01-31' ORDER BY a");
  assert.equal(withDateRange("SELECT a FROM campaign WHERE campaign.status = 'ENABLED'", 'x', 'y'), "SELECT a FROM campaign WHERE campaign.status = 'ENABLED' AND segments.date BETWEEN 'x' AND 'y'");
});
