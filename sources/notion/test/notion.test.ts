// Notion API as documented (developers.notion.com/reference: "Search" POST /v1/search with filter,
// sort, start_cursor, page_size; "Query a database" POST /v1/databases/{id}/query; "Pagination":
// {"object":"list","results":[...],"next_cursor":..,"has_more":bool}; Notion-Version header;
// 401 {"object":"error","status":401,"code":"unauthorized","message":"API token is invalid."}).
import { after } from 'node:test';
import { bearerToken, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'secret_FakeNotionIntegrationToken';

function listPage(req: FakeRequest, rows: Record<string, unknown>[]) {
  const size = Math.min(100, Number(req.body?.page_size ?? 100));
  const from = req.body?.start_cursor ? rows.findIndex((r) => r.id === req.body.start_cursor) : 0;
  if (from < 0) return { status: 400, body: { object: 'error', status: 400, code: 'validation_error', message: 'start_cursor is invalid' } };
  const page = rows.slice(from, from + size);
  const next = rows[from + size];
  return { body: { object: 'list', results: page, next_cursor: next ? next.id : null, has_more: !!next, type: 'page_or_database' } };
}

const fake = new FakeVendor({
  routes: {
    'GET /v1/users/me': () => ({ body: { object: 'user', id: 'bot-1', type: 'bot' } }),
    'POST /v1/search': (req, f) => {
      if (req.headers['notion-version'] !== '2022-06-28') return { status: 400, body: { object: 'error', code: 'missing_version' } };
      const kind = req.body?.filter?.value;
      return listPage(req, f.table(kind === 'database' ? 'databases' : 'pages'));
    },
    'POST /v1/databases/:id/query': (req, f) => listPage(req, f.table('rows').filter((r) => (r.parent as { database_id: string }).database_id === req.params.id)),
  },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { object: 'error', status: 401, code: 'unauthorized', message: 'API token is invalid.' } }),
});
await fake.start();
after(() => fake.stop());

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const page = (n: number, db?: string) => ({
  object: 'page',
  id: uuid(n),
  created_time: '2024-01-01T00:00:00.000Z',
  last_edited_time: '2024-01-02T00:00:00.000Z',
  archived: false,
  parent: db ? { type: 'database_id', database_id: db } : { type: 'workspace', workspace: true },
  properties: { Name: { id: 'title', type: 'title', title: [{ plain_text: `Page ${n}` }] } },
  url: `https://www.notion.so/${n}`,
});

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url }),
  env: { NOTION_API_KEY: TOKEN },
  secretEnv: 'NOTION_API_KEY',
  seed() {
    fake.table('databases').push({ object: 'database', id: uuid(1), title: [{ plain_text: 'Tasks' }], properties: { Name: { id: 'title', type: 'title' } }, created_time: '2024-01-01T00:00:00.000Z', last_edited_time: '2024-01-01T00:00:00.000Z' });
    for (let n = 100; n < 350; n++) fake.table('pages').push(page(n));
    for (let n = 1000; n < 1150; n++) fake.table('rows').push(page(n, uuid(1)));
  },
  addFieldMidStream() {
    for (const p of fake.table('pages').slice(100)) p.icon = { type: 'emoji', emoji: '📄' };
    return { resource: 'pages', column: 'icon__emoji' };
  },
  missingRequired: { config: { api_key_env: '' }, path: '/api_key_env' },
});
