import { declareRestSource, Type, type ResourceRun } from '@basin/sdk';

const RESOURCES = ['databases', 'pages', 'database_rows'];
const VERSION = '2022-06-28';
const LIST = { cursorPath: 'next_cursor', cursorParam: 'start_cursor', dataSelector: 'results', hasMorePath: 'has_more' };

/** Everything of one object type shared with the integration, oldest edit first. */
const search =
  (object: 'page' | 'database') =>
  <C,>(run: ResourceRun<C>) =>
    run.postPages('/v1/search', { filter: { property: 'object', value: object }, sort: { direction: 'ascending', timestamp: 'last_edited_time' }, page_size: 100 }, LIST);

/**
 * Notion API with an internal integration token: the databases and pages shared with the
 * integration (POST /v1/search, `start_cursor`/`next_cursor`) and the rows of each database
 * (POST /v1/databases/{id}/query). Properties become `properties__<name>__...` columns; each
 * sync replaces the tables. `generic_config`.
 */
export default declareRestSource({
  type: 'notion',
  title: 'Notion',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      api_key_env: Type.String({ minLength: 1, default: 'NOTION_API_KEY', description: 'name of the environment variable holding the integration token' }),
      database_ids: Type.Array(Type.String({ minLength: 1 }), { default: [], uniqueItems: true, description: 'databases whose rows to load; empty = every database shared with the integration' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.notion.com' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'bearer', tokenEnv: c.api_key_env, field: 'api_key_env' }, headers: { 'notion-version': VERSION } }),
  selected: (c) => c.resources,
  endpoints: [
    { name: 'databases', primaryKey: ['id'], read: search('database') },
    { name: 'pages', primaryKey: ['id'], read: search('page') },
    {
      name: 'database_rows',
      primaryKey: ['id'],
      parent: { resource: 'databases', field: 'id', as: 'database_id', filter: (db, c) => c.database_ids.length === 0 || c.database_ids.includes(String(db.id)) },
      read: (run) =>
        run.postPages(`/v1/databases/${encodeURIComponent(String(run.parent!.__parentKey))}/query`, { page_size: 100 }, LIST),
    },
  ],
  async check(_ctx, client) {
    const res = await client.get('/v1/users/me');
    return `Notion answered ${res.status}.`;
  },
});
