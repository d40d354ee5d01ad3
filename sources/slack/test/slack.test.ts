// Slack Web API as documented (api.slack.com/methods/conversations.list, users.list,
// conversations.history; "Pagination": cursor + response_metadata.next_cursor; "Rate limits": 429
// with Retry-After): every answer is HTTP 200 {"ok":true,...} or {"ok":false,"error":"invalid_auth"}.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, collectRead, createTestContext, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'xoxb-1111-2222-FakeSlackToken';
const T0 = 1_712_000_000;

function cursorPaged(req: FakeRequest, rows: Record<string, unknown>[], key: string) {
  const limit = Number(req.query.get('limit') ?? 100);
  const from = Number(Buffer.from(req.query.get('cursor') ?? '', 'base64').toString() || 0);
  const more = from + limit < rows.length;
  return { body: { ok: true, [key]: rows.slice(from, from + limit), has_more: more, response_metadata: { next_cursor: more ? Buffer.from(String(from + limit)).toString('base64') : '' } } };
}

const fake = new FakeVendor({
  routes: {
    'GET /conversations.list': (req, f) => cursorPaged(req, f.table('channels'), 'channels'),
    'GET /users.list': (req, f) => cursorPaged(req, f.table('users'), 'members'),
    'GET /conversations.history': (req, f) => {
      const channel = req.query.get('channel');
      if (!f.table('channels').some((c) => c.id === channel)) return { body: { ok: false, error: 'channel_not_found' } };
      const oldest = Number(req.query.get('oldest') ?? 0);
      const rows = f
        .table('messages')
        .filter((m) => m.channel === channel && Number(m.ts) > oldest)
        .sort((a, b) => Number(b.ts) - Number(a.ts))
        .map(({ channel: _c, ...m }) => m);
      return cursorPaged(req, rows, 'messages');
    },
  },
  authorize: (req) => bearerToken(req) === TOKEN,
  // Slack answers bad tokens with HTTP 200
  unauthorized: () => ({ status: 200, body: { ok: false, error: 'invalid_auth' } }),
});
await fake.start();
after(() => fake.stop());

const ts = (i: number) => `${T0 + i}.000${String(100 + (i % 900)).padStart(3, '0')}`;
const message = (channel: string, i: number) => ({ channel, type: 'message', user: 'U01', text: `hello ${i}`, ts: ts(i), reactions: [{ name: 'wave', count: 1 }] });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url }),
  env: { SLACK_ACCESS_TOKEN: TOKEN },
  secretEnv: 'SLACK_ACCESS_TOKEN',
  seed() {
    fake.table('channels').push({ id: 'C01', name: 'general', is_channel: true, created: T0, topic: { value: 'all', creator: 'U01' } }, { id: 'C02', name: 'random', is_channel: true, created: T0, topic: { value: '', creator: 'U01' } });
    for (let i = 0; i < 3; i++) fake.table('users').push({ id: `U0${i}`, name: `user${i}`, deleted: false, profile: { real_name: `User ${i}`, email: `u${i}@example.com` } });
    for (let i = 0; i < 450; i++) fake.table('messages').push(message('C01', i));
    for (let i = 0; i < 5; i++) fake.table('messages').push(message('C02', i));
  },
  incremental: {
    resource: 'messages',
    addNewer: () => void fake.table('messages').push(message('C01', 1000)),
    reads: (req) => req.path === '/conversations.history',
    asksOnlyNewer: (req) => Number(req.query.get('oldest')) >= Number(req.query.get('channel') === 'C01' ? ts(449) : ts(4)),
  },
  addFieldMidStream() {
    // newest first: older messages (later pages) are threads
    for (const m of fake.table('messages')) if (m.channel === 'C01' && Number(m.ts) < T0 + 200) m.thread_ts = m.ts;
    return { resource: 'messages', column: 'thread_ts' };
  },
});

test('slack: selected_channels limits the messages read; start_date becomes oldest', async () => {
  fake.empty();
  fake.clearFaults();
  fake.table('channels').push({ id: 'C01', name: 'general' }, { id: 'C02', name: 'random' });
  fake.table('messages').push(message('C01', 1), message('C02', 2));
  const mark = fake.requests.length;
  const ctx = createTestContext(source, { base_url: fake.url, selected_channels: ['random'], start_date: '2024-01-01' }, { env: { SLACK_ACCESS_TOKEN: TOKEN } });
  const r = await collectRead(source, ctx, [{ name: 'messages' }]);
  assert.deepEqual(r.records.messages!.map((m) => m.channel_id), ['C02']);
  const hist = fake.since(mark).filter((q) => q.path === '/conversations.history');
  assert.deepEqual(hist.map((q) => [q.query.get('channel'), q.query.get('oldest')]), [['C02', String(Date.UTC(2024, 0, 1) / 1000)]]);
});
