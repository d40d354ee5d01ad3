import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['customers', 'orders', 'products'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/**
 * Shopify Admin REST API with an app's access token (`X-Shopify-Access-Token`; the OAuth grant
 * flow lives in the provider OAuth store, until then the token comes from an environment
 * variable): customers, orders (any status) and products, incremental by `updated_at` with
 * `updated_at_min`, paged by the `Link` header's `page_info`. `generic_config`.
 */
export default declareRestSource({
  type: 'shopify',
  title: 'Shopify',
  category: 'business',
  authKind: 'oauth2',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      shop: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]*(\\.myshopify\\.com)?$', description: 'the shop name or NAME.myshopify.com' }),
      access_token_env: Type.String({ minLength: 1, default: 'SHOPIFY_ACCESS_TOKEN', description: 'name of the environment variable holding the Admin API access token' }),
      api_version: Type.String({ pattern: '^\\d{4}-\\d{2}$', default: '2024-07' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      start_date: Type.Optional(Type.String({ pattern: DATE })),
      end_date: Type.Optional(Type.String({ pattern: DATE })),
      base_url: Type.Optional(Type.String({ pattern: '^https?://', description: 'API root (default https://SHOP.myshopify.com)' })),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({
    baseUrl: c.base_url ?? `https://${c.shop.replace(/\.myshopify\.com$/, '')}.myshopify.com`,
    auth: { kind: 'oauth2_token', provider: 'Shopify', tokenEnv: c.access_token_env, header: 'X-Shopify-Access-Token' },
  }),
  selected: (c) => c.resources,
  paginator: { type: 'link_header' },
  endpoints: RESOURCES.map((name) => ({
    name,
    path: (c: { api_version: string }) => `/admin/api/${c.api_version}/${name}.json`,
    params: { limit: 250, order: 'updated_at asc', ...(name === 'orders' ? { status: 'any' } : {}) },
    dataSelector: name,
    primaryKey: ['id'],
    incremental: { cursorField: 'updated_at', param: 'updated_at_min', endParam: 'updated_at_max', initialValue: (c: { start_date?: string }) => c.start_date, endValue: (c: { end_date?: string }) => c.end_date },
  })),
});
