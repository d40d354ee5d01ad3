// Facebook Marketing API as documented (developers.facebook.com/docs/marketing-api: GET
// /v20.0/act_<id>/campaigns|ads|adsets|adcreatives?fields=&limit=&filtering=[{field,operator,value}],
// /act_<id>/insights?level=ad&time_increment=1&time_range={"since","until"}; "Paginated results":
// {"data":[...],"paging":{"cursors":{"before","after"},"next":url}}; errors are
// {"error":{"message","type":"OAuthException","code":190}} with 400; throttling code 17/80004).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, collectRead, createTestContext, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'EAAFakeLongLivedToken0123';
const ACT = 'act_123456789';
const V = '/v20.0';
const iso = (i: number) => new Date(Date.UTC(2024, 9, 1) + i * 60_000).toISOString().replace('.000Z', '+0000');
const day = (i: number) => new Date(Date.now() - (9 - i) * 86_400_000).toISOString().slice(0, 10);

function cursorPaged(req: FakeRequest, rows: Record<string, unknown>[]) {
  const limit = Number(req.query.get('limit') ?? 25);
  const from = Number(req.query.get('after') ?? 0);
  const page = rows.slice(from, from + limit);
  const body: Record<string, unknown> = { data: page };
  if (page.length) {
    const paging: Record<string, unknown> = { cursors: { before: String(from), after: String(from + limit) } };
    if (from + limit < rows.length) {
      const next = new URL(req.url);
      next.searchParams.set('after', String(from + limit));
      paging.next = next.href;
    }
    body.paging = paging;
  }
  return { body };
}

function edge(table: string) {
  return (req: FakeRequest, f: FakeVendor) => {
    let rows = f.table(table);
    const filtering = req.query.get('filtering');
    if (filtering) {
      const [flt] = JSON.parse(filtering) as Array<{ field: string; operator: string; value: number }>;
      if (flt!.field !== 'updated_time' || flt!.operator !== 'GREATER_THAN') return { status: 400, body: { error: { message: 'Invalid filtering', type: 'OAuthException', code: 100 } } };
      rows = rows.filter((r) => Date.parse(String(r.updated_time).replace('+0000', 'Z')) / 1000 > flt!.value);
    }
    return cursorPaged(req, rows);
  };
}

const fake = new FakeVendor({
  routes: {
    [`GET ${V}/${ACT}`]: () => ({ body: { id: ACT, name: 'Acme Ads', account_status: 1 } }),
    [`GET ${V}/${ACT}/campaigns`]: edge('campaigns'),
    [`GET ${V}/${ACT}/ads`]: edge('ads'),
    [`GET ${V}/${ACT}/adsets`]: edge('adsets'),
    [`GET ${V}/${ACT}/adcreatives`]: edge('adcreatives'),
    [`GET ${V}/:ad/leads`]: (req, f) => cursorPaged(req, f.table('leads').filter((l) => l.ad_id === req.params.ad)),
    [`GET ${V}/${ACT}/insights`]: (req, f) => {
      const range = JSON.parse(req.query.get('time_range') ?? '{}') as { since?: string; until?: string };
      if (req.query.get('level') !== 'ad' || req.query.get('time_increment') !== '1' || !range.since) return { status: 400, body: { error: { message: 'bad insights request', code: 100 } } };
      return cursorPaged(req, f.table('insights').filter((r) => String(r.date_start) >= range.since! && String(r.date_start) <= range.until!));
    },
  },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 400, body: { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'AbC' } } }),
  rateLimited: () => ({ status: 400, body: { error: { message: 'User request limit reached', type: 'OAuthException', code: 17, error_subcode: 2446079 } } }),
});
await fake.start();
after(() => fake.stop());

const campaign = (i: number) => ({ id: `2385${String(i).padStart(6, '0')}`, name: `Campaign ${i}`, objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE', created_time: iso(i), updated_time: iso(i) });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, account_id: ACT }),
  env: { FACEBOOK_ACCESS_TOKEN: TOKEN },
  secretEnv: 'FACEBOOK_ACCESS_TOKEN',
  noRetryAfter: true,
  seed() {
    for (let i = 0; i < 230; i++) fake.table('campaigns').push(campaign(i));
    fake.table('ads').push({ id: 'ad1', name: 'Ad', adset_id: 'as1', campaign_id: campaign(0).id, status: 'ACTIVE', creative: { id: 'cr1' }, created_time: iso(0), updated_time: iso(0) });
    fake.table('adsets').push({ id: 'as1', name: 'Set', campaign_id: campaign(0).id, targeting: { geo_locations: { countries: ['DE'] } }, created_time: iso(0), updated_time: iso(0) });
    for (let i = 0; i < 8; i++) fake.table('insights').push({ date_start: day(i), date_stop: day(i), account_id: '123456789', ad_id: 'ad1', impressions: String(1000 + i), clicks: String(10 + i), spend: '1.23', actions: [{ action_type: 'link_click', value: '3' }] });
  },
  incremental: {
    resource: 'campaigns',
    addNewer: () => void fake.table('campaigns').push(campaign(5000)),
    reads: (req) => req.path === `${V}/${ACT}/campaigns` && !req.query.has('after'),
    asksOnlyNewer: (req) => (JSON.parse(req.query.get('filtering') ?? '[{}]')[0].value ?? 0) >= Date.parse(iso(229).replace('+0000', 'Z')) / 1000 - 1,
  },
  addFieldMidStream() {
    for (const c of fake.table('campaigns').slice(120)) c.special_ad_categories = ['HOUSING'];
    return { resource: 'campaigns', column: 'special_ad_categories' };
  },
  missingRequired: { config: {}, path: '/account_id' },
});

test('facebook_ads: daily insights from initial_load_past_days; the next sync asks from the last day', async () => {
  fake.empty();
  fake.clearFaults();
  for (let i = 0; i < 8; i++) fake.table('insights').push({ date_start: day(i), date_stop: day(i), ad_id: 'ad1', impressions: '1' });
  const cfg = { base_url: fake.url, account_id: ACT, resources: ['insights'], initial_load_past_days: 5 };
  const env = { FACEBOOK_ACCESS_TOKEN: TOKEN };
  const first = await collectRead(source, createTestContext(source, cfg, { env }), []);
  assert.deepEqual(first.records.insights!.map((r) => r.date_start), [day(4), day(5), day(6), day(7)]);
  const mark = fake.requests.length;
  await collectRead(source, createTestContext(source, cfg, { env }), [], first.state);
  assert.equal(JSON.parse(fake.since(mark)[0]!.query.get('time_range')!).since, day(7));
});
