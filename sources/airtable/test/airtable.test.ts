// Airtable Web API as documented (airtable.com/developers/web/api: "Get base schema"
// GET /v0/meta/bases/{baseId}/tables {tables:[{id,name,primaryFieldId,fields}]}; "List records"
// GET /v0/{baseId}/{tableIdOrName}?pageSize=&offset= {records:[{id,createdTime,fields}],offset};
// 401 {"error":{"type":"AUTHENTICATION_REQUIRED"}}; 429 then wait 30 s).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, FakeVendor, runVendorSuite } from '@basin/sdk/testkit';
import source, { tableName } from '../src/index.js';

const TOKEN = 'patFAKE.0123456789abcdef';
const BASE = 'appAbCdEf12345678';

const fake = new FakeVendor({
  routes: {
    [`GET /v0/meta/bases/${BASE}/tables`]: () => ({
      body: {
        tables: [
          { id: 'tblProjects0000001', name: 'Projects', primaryFieldId: 'fld1', fields: [{ id: 'fld1', name: 'Name', type: 'singleLineText' }] },
          { id: 'tblTasks000000002', name: 'Open Tasks', primaryFieldId: 'fld2', fields: [{ id: 'fld2', name: 'Title', type: 'singleLineText' }] },
        ],
      },
    }),
    [`GET /v0/${BASE}/:table`]: (req, f) => {
      const rows = f.table(req.params.table!);
      const size = Math.min(100, Number(req.query.get('pageSize') ?? 100));
      const from = Number(req.query.get('offset')?.split('/')[1] ?? 0);
      const more = from + size < rows.length;
      return { body: { records: rows.slice(from, from + size), ...(more ? { offset: `itr${from}/${from + size}` } : {}) } };
    },
  },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } } }),
});
await fake.start();
after(() => fake.stop());

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, base_id: BASE }),
  resources: ['projects', 'open_tasks'],
  env: { AIRTABLE_ACCESS_TOKEN: TOKEN },
  secretEnv: 'AIRTABLE_ACCESS_TOKEN',
  seed() {
    for (let i = 0; i < 250; i++) fake.table('tblProjects0000001').push({ id: `rec${String(i).padStart(14, '0')}`, createdTime: '2024-01-01T00:00:00.000Z', fields: { Name: `Project ${i}`, Budget: i * 100, Tags: ['a', 'b'] } });
    fake.table('tblTasks000000002').push({ id: 'recTask00000000001', createdTime: '2024-01-02T00:00:00.000Z', fields: { Title: 'Write docs' } });
  },
  addFieldMidStream() {
    for (const r of fake.table('tblProjects0000001').slice(120)) (r.fields as Record<string, unknown>).Owner = 'Ada';
    return { resource: 'projects', column: 'fields__Owner' };
  },
  missingRequired: { config: {}, path: '/base_id' },
});

test('airtable: table names become Basin table names', () => {
  assert.equal(tableName('Open Tasks'), 'open_tasks');
  assert.equal(tableName('2024 Plan'), 't_2024_plan');
});
