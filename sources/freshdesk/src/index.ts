import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['agents', 'companies', 'contacts', 'groups', 'roles', 'tickets'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/**
 * Freshdesk API v2 with an API key (basic auth `KEY:X`): tickets (incremental by `updated_at`
 * with `updated_since`, oldest first) and contacts (`_updated_since`), agents, companies, groups
 * and roles; paged by `page`/`per_page` and the `Link` header. `generic_config`.
 */
export default declareRestSource({
  type: 'freshdesk',
  title: 'Freshdesk',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      domain: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'the part before .freshdesk.com' }),
      api_key_env: Type.String({ minLength: 1, default: 'FRESHDESK_API_KEY', description: 'name of the environment variable holding the API key' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      start_date: Type.String({ pattern: DATE, default: '2000-01-01', description: 'tickets and contacts updated since this day on the first sync' }),
      base_url: Type.Optional(Type.String({ pattern: '^https?://', description: 'API root (default https://DOMAIN.freshdesk.com)' })),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({
    baseUrl: c.base_url ?? `https://${c.domain}.freshdesk.com`,
    auth: { kind: 'basic', usernameEnv: c.api_key_env, usernameField: 'api_key_env', passwordEnv: '', password: 'X' },
  }),
  selected: (c) => c.resources,
  paginator: { type: 'link_header' },
  endpoints: RESOURCES.map((name) => ({
    name,
    path: `/api/v2/${name}`,
    params: name === 'tickets' ? { per_page: 100, order_by: 'updated_at', order_type: 'asc' } : { per_page: 100 },
    primaryKey: ['id'],
    ...(name === 'tickets' || name === 'contacts'
      ? { incremental: { cursorField: 'updated_at', param: name === 'tickets' ? 'updated_since' : '_updated_since', initialValue: (c: { start_date: string }) => `${c.start_date}T00:00:00Z` } }
      : {}),
  })),
});
