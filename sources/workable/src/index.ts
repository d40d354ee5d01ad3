import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['candidates', 'custom_attributes', 'events', 'jobs', 'members', 'recruiters', 'requisitions', 'stages'];
const DEFAULTS = ['candidates', 'jobs', 'members', 'recruiters', 'stages'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/**
 * Workable SPI v3 with an API access token: candidates and jobs (incremental by `updated_at` with
 * `updated_after`), members, recruiters, stages, requisitions, custom attributes and events;
 * paged by `paging.next` (a `since_id` URL). `generic_config`.
 */
export default declareRestSource({
  type: 'workable',
  title: 'Workable',
  category: 'business',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      subdomain: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'the account subdomain (SUBDOMAIN.workable.com)' }),
      access_token_env: Type.String({ minLength: 1, default: 'WORKABLE_ACCESS_TOKEN', description: 'name of the environment variable holding the API access token' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
      start_date: Type.Optional(Type.String({ pattern: DATE, description: 'candidates and jobs updated since this day on the first sync' })),
      base_url: Type.Optional(Type.String({ pattern: '^https?://', description: 'API root (default https://SUBDOMAIN.workable.com/spi/v3)' })),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  defaultResources: DEFAULTS,
  connection: (c) => ({ baseUrl: c.base_url ?? `https://${c.subdomain}.workable.com/spi/v3`, auth: { kind: 'bearer', tokenEnv: c.access_token_env, field: 'access_token_env' } }),
  selected: (c) => c.resources,
  paginator: { type: 'next_url', next_url_path: 'paging.next' },
  endpoints: RESOURCES.map((name) => ({
    name,
    path: name,
    params: { limit: 100 },
    dataSelector: name === 'custom_attributes' ? 'custom_attributes' : name,
    primaryKey: ['id'],
    ...(name === 'candidates' || name === 'jobs'
      ? { incremental: { cursorField: 'updated_at', param: 'updated_after', initialValue: (c: { start_date?: string }) => (c.start_date ? `${c.start_date}T00:00:00Z` : undefined) } }
      : {}),
  })),
});
