// Mux as documented (docs.mux.com/api-reference: "List assets" GET /video/v1/assets limit, page;
// "List video views" GET /data/v1/video-views limit, page, timeframe[] (two unix timestamps);
// {"data":[...],"total_row_count":n,"timeframe":[a,b]}; basic auth token id:secret; 401
// {"error":{"type":"unauthorized","messages":["Unauthorized request"]}}).
import { after } from 'node:test';
import { basicCredentials, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const ID = 'mux-token-id-0001';
const SECRET = 'mux-token-secret-0002';
const now = Math.floor(Date.now() / 1000);
const viewEnd = (i: number) => new Date((now - 20 * 86_400 + i * 60) * 1000).toISOString();

function paged(req: FakeRequest, rows: unknown[], extra: Record<string, unknown> = {}) {
  const page = Number(req.query.get('page') ?? 1);
  const limit = Number(req.query.get('limit') ?? 25);
  return { body: { data: rows.slice((page - 1) * limit, page * limit), ...extra } };
}

const fake = new FakeVendor({
  routes: {
    'GET /video/v1/assets': (req, f) => paged(req, f.table('assets')),
    'GET /data/v1/video-views': (req, f) => {
      const tf = req.query.getAll('timeframe[]').map(Number);
      if (tf.length !== 2) return { status: 400, body: { error: { type: 'invalid_parameters', messages: ['timeframe must have two values'] } } };
      const rows = f.table('views').filter((v) => Date.parse(String(v.view_end)) / 1000 >= tf[0]! && Date.parse(String(v.view_end)) / 1000 <= tf[1]! + 5);
      return paged(req, rows, { total_row_count: rows.length, timeframe: tf });
    },
  },
  authorize: (req) => {
    const c = basicCredentials(req);
    return c?.user === ID && c.password === SECRET;
  },
  unauthorized: () => ({ status: 401, body: { error: { type: 'unauthorized', messages: ['Unauthorized request'] } } }),
});
await fake.start();
after(() => fake.stop());

const view = (i: number) => ({ id: `view-${i}`, viewer_os_family: 'macOS', video_title: 'Intro', watch_time: 1000 + i, view_start: viewEnd(i), view_end: viewEnd(i), player_error_code: null });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url }),
  env: { MUX_TOKEN_ID: ID, MUX_TOKEN_SECRET: SECRET },
  secretEnv: 'MUX_TOKEN_SECRET',
  seed() {
    for (let i = 0; i < 3; i++) fake.table('assets').push({ id: `asset-${i}`, status: 'ready', duration: 12.5, created_at: String(now - i), playback_ids: [{ id: `pb${i}`, policy: 'public' }], tracks: [] });
    for (let i = 0; i < 240; i++) fake.table('views').push(view(i));
  },
  incremental: {
    resource: 'views',
    addNewer: () => void fake.table('views').push(view(1000)),
    reads: (req) => req.path === '/data/v1/video-views',
    asksOnlyNewer: (req) => Number(req.query.getAll('timeframe[]')[0]) >= Math.floor(Date.parse(viewEnd(239)) / 1000),
  },
  addFieldMidStream() {
    for (const v of fake.table('views').slice(150)) v.view_has_ad = true;
    return { resource: 'views', column: 'view_has_ad' };
  },
  missingRequired: { config: { initial_load_past_days: 0 }, path: '/initial_load_past_days' },
});
