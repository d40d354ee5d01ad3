import { declareRestSource, getPath, Type, type ResourceRun } from '@basin/sdk';

const DEFAULTS = ['contacts', 'companies', 'deals', 'tickets'];
const RESOURCES = [...DEFAULTS, 'products', 'quotes', 'owners', 'properties', 'pipelines_deal', 'pipelines_ticket'];
const OBJECTS = ['contacts', 'companies', 'deals', 'tickets', 'products', 'quotes'];
const PAGE = 100;

type Config = { resources: string[] };

/**
 * A CRM object read through the search endpoint, oldest change first: the first sync reads all,
 * later ones send `hs_lastmodifieddate >= cursor` (contacts call it `lastmodifieddate`). Pages by
 * the `paging.next.after` token in the body.
 */
async function* searchObjects(run: ResourceRun<Config>): AsyncGenerator<Record<string, unknown>[]> {
  const object = run.resource.name;
  const prop = object === 'contacts' ? 'lastmodifieddate' : 'hs_lastmodifieddate';
  const start = run.cursor?.start;
  const filterGroups = start === undefined ? [] : [{ filters: [{ propertyName: prop, operator: 'GTE', value: String(Date.parse(String(start))) }] }];
  let after: string | undefined;
  do {
    const res = await run.client.request(`/crm/v3/objects/${object}/search`, {
      method: 'POST',
      json: { filterGroups, sorts: [{ propertyName: prop, direction: 'ASCENDING' }], limit: PAGE, ...(after ? { after } : {}) },
    });
    const results = (getPath(res.body, 'results') as Record<string, unknown>[] | undefined) ?? [];
    if (results.length) yield results;
    const next = getPath(res.body, 'paging.next.after');
    after = typeof next === 'string' && next ? next : undefined;
  } while (after);
}

/**
 * HubSpot CRM v3 with a private-app token: contacts, companies, deals, tickets, products and quotes
 * (incremental by `updatedAt`), owners, property definitions and deal/ticket pipelines.
 * An object's properties become `properties__<name>` columns.
 */
export default declareRestSource({
  type: 'hubspot',
  title: 'HubSpot',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      api_key_env: Type.String({ minLength: 1, default: 'HUBSPOT_API_KEY', description: 'name of the environment variable holding the private-app token' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.hubapi.com', description: 'API root (a proxy, or a test server)' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: DEFAULTS,
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'bearer', tokenEnv: c.api_key_env, field: 'api_key_env' } }),
  selected: (c) => c.resources,
  paginator: { type: 'cursor', cursor_path: 'paging.next.after', cursor_param: 'after' },
  dataSelector: 'results',
  endpoints: [
    ...OBJECTS.map((name) => ({
      name,
      primaryKey: ['id'],
      incremental: { cursorField: 'updatedAt' },
      read: searchObjects,
    })),
    { name: 'owners', path: '/crm/v3/owners', params: { limit: PAGE }, primaryKey: ['id'] },
    { name: 'properties', path: '/crm/v3/properties/contacts', primaryKey: ['name'] },
    { name: 'pipelines_deal', path: '/crm/v3/pipelines/deals', primaryKey: ['id'] },
    { name: 'pipelines_ticket', path: '/crm/v3/pipelines/tickets', primaryKey: ['id'] },
  ],
  async check(_ctx, client) {
    const res = await client.get('/crm/v3/owners', { limit: 1 });
    return `HubSpot answered ${res.status}.`;
  },
});
