// Pipedrive API v1 as documented (developers.pipedrive.com/docs/api/v1: Recents "GET /v1/recents
// since_timestamp=YYYY-MM-DD HH:MM:SS&items=deal", Deals/Stages/Users lists; "Pagination": start,
// limit, additional_data.pagination.more_items_in_collection/next_start; api_token query param).
import { after } from 'node:test';
import { FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'pd0123456789abcdef0123456789abcdef';
const ITEMS: Record<string, string> = { activity: 'activities', deal: 'deals', organization: 'organizations', person: 'persons', product: 'products' };
const ts = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().slice(0, 19).replace('T', ' ');

function paged(req: FakeRequest, rows: unknown[]) {
  const start = Number(req.query.get('start') ?? 0);
  const limit = Number(req.query.get('limit') ?? 100);
  const more = start + limit < rows.length;
  return { body: { success: true, data: rows.slice(start, start + limit), additional_data: { pagination: { start, limit, more_items_in_collection: more, ...(more ? { next_start: start + limit } : {}) } } } };
}

const fake = new FakeVendor({
  routes: {
    'GET /v1/recents': (req, f) => {
      const since = req.query.get('since_timestamp');
      if (!since) return { status: 400, body: { success: false, error: 'since_timestamp is required', errorCode: 400 } };
      const item = req.query.get('items')!;
      const rows = f
        .table(ITEMS[item]!)
        .filter((r) => String(r.update_time) >= since)
        .sort((a, b) => String(a.update_time).localeCompare(String(b.update_time)))
        .map((r) => ({ item, id: r.id, data: r }));
      return paged(req, rows);
    },
    'GET /v1/:name': (req, f) => paged(req, f.table(req.params.name!)),
  },
  authorize: (req) => req.query.get('api_token') === TOKEN,
  unauthorized: () => ({ status: 401, body: { success: false, error: 'You need to be authorized to make this request.', errorCode: 401 } }),
});
await fake.start();
after(() => fake.stop());

const deal = (i: number) => ({ id: i + 1, title: `Deal ${i}`, value: i * 10, currency: 'EUR', status: 'open', org_id: { name: 'Acme', value: 1 }, add_time: ts(i), update_time: ts(i) });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, resources: ['deals', 'persons', 'stages', 'users'] }),
  resources: ['deals', 'persons', 'stages', 'users'],
  env: { PIPEDRIVE_API_TOKEN: TOKEN },
  secretEnv: 'PIPEDRIVE_API_TOKEN',
  seed() {
    for (let i = 0; i < 700; i++) fake.table('deals').push(deal(i));
    for (let i = 0; i < 4; i++) fake.table('persons').push({ id: 50 + i, name: `P${i}`, email: [{ value: `p${i}@example.com`, primary: true }], add_time: ts(i), update_time: ts(i) });
    fake.table('stages').push({ id: 1, name: 'Lead In', pipeline_id: 1, order_nr: 1 });
    fake.table('users').push({ id: 1, name: 'Admin', email: 'admin@example.com', active_flag: true });
  },
  incremental: {
    resource: 'deals',
    addNewer: () => void fake.table('deals').push(deal(9000)),
    reads: (req) => req.path === '/v1/recents' && req.query.get('items') === 'deal',
    asksOnlyNewer: (req) => (req.query.get('since_timestamp') ?? '') >= ts(699),
  },
  addFieldMidStream() {
    for (const d of fake.table('deals')) if (Number(d.id) > 600) d.label = 'hot';
    return { resource: 'deals', column: 'label' };
  },
  missingRequired: { config: { resources: [] }, path: '/resources' },
});
