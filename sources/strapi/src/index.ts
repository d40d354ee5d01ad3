import { declareRestSource, Type } from '@basin/sdk';

/** A collection's plural API id as a table name. */
const tableName = (c: string) => c.replace(/[^A-Za-z0-9]+/g, '_').replace(/^(\d)/, '_$1').toLowerCase();

/**
 * Strapi (v4/v5 REST API) with an API token: one table per listed collection type, read
 * through `pagination[page]`/`pagination[pageSize]` until `meta.pagination.pageCount`, replaced
 * each sync. v4 entries' `attributes` become `attributes__<field>` columns. `generic_config`.
 */
export default declareRestSource({
  type: 'strapi',
  title: 'Strapi',
  category: 'business',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      base_url: Type.String({ pattern: '^https?://', description: 'your Strapi server (https://cms.example.com)' }),
      collections: Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }), { minItems: 1, uniqueItems: true, description: 'plural API ids of the collection types (articles, categories)' }),
      api_token_env: Type.String({ minLength: 1, default: 'STRAPI_API_TOKEN', description: 'name of the environment variable holding the API token' }),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'bearer', tokenEnv: c.api_token_env, field: 'api_token_env' } }),
  endpoints: [],
  async dynamicEndpoints(ctx) {
    return ctx.config.collections.map((c) => ({
      name: tableName(c),
      path: `/api/${c}`,
      dataSelector: 'data',
      paginator: { type: 'page_number' as const, page_param: 'pagination[page]', start_page: 1, page_size_param: 'pagination[pageSize]', page_size: 100, total_pages_path: 'meta.pagination.pageCount' },
      primaryKey: ['id'],
    }));
  },
  async check(ctx, client) {
    const c = ctx.config.collections[0]!;
    const res = await client.get(`/api/${c}`, { 'pagination[pageSize]': 1 });
    return `Strapi answered ${res.status} for ${c}.`;
  },
});
