// HubSpot CRM v3 as documented (developers.hubspot.com/docs/api/crm/search, /crm/objects, /owners,
// /pipelines): POST /crm/v3/objects/{type}/search with filterGroups/sorts/limit/after, answered
// {"total":n,"results":[{id,properties,createdAt,updatedAt,archived}],"paging":{"next":{"after":"..."}}};
// private-app bearer token; 401 {"status":"error","category":"INVALID_AUTHENTICATION"}.
import { after } from 'node:test';
import { bearerToken, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'pat-eu1-fake-0000-1111';
const T0 = Date.UTC(2024, 2, 1);

function search(req: FakeRequest, fake: FakeVendor) {
  const rows = [...fake.table(req.params.object!)].sort((a, b) => Date.parse(String(a.updatedAt)) - Date.parse(String(b.updatedAt)));
  const filter = req.body?.filterGroups?.[0]?.filters?.[0];
  const matching = filter ? rows.filter((r) => Date.parse(String(r.updatedAt)) >= Number(filter.value)) : rows;
  const limit = Math.min(200, Number(req.body?.limit ?? 10));
  const from = Number(req.body?.after ?? 0);
  const page = matching.slice(from, from + limit);
  const more = from + limit < matching.length;
  return { body: { total: matching.length, results: page, ...(more ? { paging: { next: { after: String(from + limit) } } } : {}) } };
}

function listed(table: string) {
  return (req: FakeRequest, fake: FakeVendor) => {
    const from = Number(req.query.get('after') ?? 0);
    const limit = Number(req.query.get('limit') ?? 100);
    const rows = fake.table(table);
    const more = from + limit < rows.length;
    return { body: { results: rows.slice(from, from + limit), ...(more ? { paging: { next: { after: String(from + limit), link: '' } } } : {}) } };
  };
}

const fake = new FakeVendor({
  routes: {
    'POST /crm/v3/objects/:object/search': search,
    'GET /crm/v3/owners': listed('owners'),
    'GET /crm/v3/properties/contacts': listed('properties'),
    'GET /crm/v3/pipelines/deals': listed('pipelines_deal'),
    'GET /crm/v3/pipelines/tickets': listed('pipelines_ticket'),
  },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { status: 'error', message: 'Authentication credentials not found.', category: 'INVALID_AUTHENTICATION' } }),
});
await fake.start();
after(() => fake.stop());

const at = (i: number) => new Date(T0 + i * 60_000).toISOString();
const contact = (i: number) => ({ id: String(100 + i), properties: { email: `c${i}@example.com`, firstname: `C${i}`, lastmodifieddate: at(i) }, createdAt: at(i), updatedAt: at(i), archived: false });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, resources: ['contacts', 'deals', 'owners', 'pipelines_deal'] }),
  resources: ['contacts', 'deals', 'owners', 'pipelines_deal'],
  env: { HUBSPOT_API_KEY: TOKEN },
  secretEnv: 'HUBSPOT_API_KEY',
  seed() {
    for (let i = 0; i < 230; i++) fake.table('contacts').push(contact(i));
    for (let i = 0; i < 12; i++) fake.table('deals').push({ id: String(900 + i), properties: { dealname: `Deal ${i}`, amount: String(i * 100), hs_lastmodifieddate: at(i) }, createdAt: at(i), updatedAt: at(i), archived: false });
    fake.table('owners').push({ id: '1', email: 'owner@example.com', firstName: 'O', lastName: 'Wner', userId: 7, createdAt: at(0), updatedAt: at(0), archived: false });
    fake.table('pipelines_deal').push({ id: 'default', label: 'Sales', displayOrder: 0, stages: [{ id: 'appointmentscheduled', label: 'Appointment' }] });
  },
  incremental: {
    resource: 'contacts',
    addNewer: () => void fake.table('contacts').push(contact(5000)),
    reads: (req) => req.path === '/crm/v3/objects/contacts/search',
    asksOnlyNewer: (req) => Number(req.body?.filterGroups?.[0]?.filters?.[0]?.value) >= Date.parse(at(229)),
  },
  addFieldMidStream() {
    for (const c of fake.table('contacts')) if (Number(c.id) >= 250) (c.properties as Record<string, unknown>).phone = '+49 30 1234';
    return { resource: 'contacts', column: 'properties__phone' };
  },
  missingRequired: { config: { resources: [] }, path: '/resources' },
});
