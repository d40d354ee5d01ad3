// Strapi v4 REST API as documented (docs.strapi.io/dev-docs/api/rest: GET /api/:pluralApiId,
// "Pagination by page" pagination[page], pagination[pageSize] (max 100), {"data":[{"id",
// "attributes":{...}}],"meta":{"pagination":{"page","pageSize","pageCount","total"}}}; API tokens as
// bearer; 401 {"data":null,"error":{"status":401,"name":"UnauthorizedError"}}).
import { after } from 'node:test';
import { bearerToken, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'strapi-api-token-0123456789';

function paged(req: FakeRequest, rows: unknown[]) {
  const page = Number(req.query.get('pagination[page]') ?? 1);
  const size = Math.min(100, Number(req.query.get('pagination[pageSize]') ?? 25));
  return { body: { data: rows.slice((page - 1) * size, page * size), meta: { pagination: { page, pageSize: size, pageCount: Math.ceil(rows.length / size), total: rows.length } } } };
}

const fake = new FakeVendor({
  routes: { 'GET /api/:collection': (req, f) => paged(req, f.table(req.params.collection!)) },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } } }),
});
await fake.start();
after(() => fake.stop());

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, collections: ['articles', 'categories'] }),
  resources: ['articles', 'categories'],
  env: { STRAPI_API_TOKEN: TOKEN },
  secretEnv: 'STRAPI_API_TOKEN',
  seed() {
    for (let i = 0; i < 230; i++) fake.table('articles').push({ id: i + 1, attributes: { title: `Article ${i}`, slug: `a-${i}`, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-02T00:00:00.000Z', publishedAt: null } });
    fake.table('categories').push({ id: 1, attributes: { name: 'News' } });
  },
  addFieldMidStream() {
    for (const a of fake.table('articles').slice(120)) (a.attributes as Record<string, unknown>).locale = 'en';
    return { resource: 'articles', column: 'attributes__locale' };
  },
  missingRequired: { config: { base_url: 'https://cms.example.com' }, path: '/collections' },
});
