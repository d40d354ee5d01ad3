import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['absence_types', 'absences', 'attendances', 'employees'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/** Personio v1 objects are `{type, attributes: {name: {label, value}}}` (employees) or `{type, attributes: {...}}`: keep the values. */
function attributes(r: Record<string, unknown>): Record<string, unknown> {
  const attrs = (r.attributes ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) out[k] = v && typeof v === 'object' && !Array.isArray(v) && 'value' in v ? (v as { value: unknown }).value : v;
  return out;
}

const today = () => new Date().toISOString().slice(0, 10);
const personioTime = (v: string | number) => String(v).slice(0, 19);

/**
 * Personio Public API v1 with API client credentials (exchanged at /v1/auth for a token):
 * employees (incremental by `last_modified_at` with `updated_since`), absence types, absences
 * (time-offs) and attendances between `start_date` and today. Attribute objects are reduced to
 * their values. `generic_config`.
 */
export default declareRestSource({
  type: 'personio',
  title: 'Personio',
  category: 'business',
  authKind: 'serviceAccount',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      client_id_env: Type.String({ minLength: 1, default: 'PERSONIO_CLIENT_ID', description: 'name of the environment variable holding the API client id' }),
      client_secret_env: Type.String({ minLength: 1, default: 'PERSONIO_CLIENT_SECRET', description: 'name of the environment variable holding the API client secret' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      start_date: Type.String({ pattern: DATE, default: '2018-01-01', description: 'first day of absences and attendances' }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.personio.de' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({
    baseUrl: c.base_url,
    auth: { kind: 'oauth2_client_credentials', tokenUrl: `${c.base_url.replace(/\/$/, '')}/v1/auth`, clientIdEnv: c.client_id_env, clientSecretEnv: c.client_secret_env, tokenPath: 'data.token' },
  }),
  selected: (c) => c.resources,
  dataSelector: 'data',
  endpoints: [
    {
      name: 'employees',
      path: '/v1/company/employees',
      paginator: { type: 'offset', offset_param: 'offset', limit_param: 'limit', limit: 100, total_path: 'metadata.total_elements' },
      map: attributes,
      primaryKey: ['id'],
      incremental: { cursorField: 'last_modified_at', param: 'updated_since', format: personioTime },
    },
    { name: 'absence_types', path: '/v1/company/time-off-types', paginator: { type: 'page_number', page_param: 'offset', start_page: 0, page_size_param: 'limit', page_size: 200, total_pages_path: 'metadata.total_pages' }, map: attributes, primaryKey: ['id'] },
    {
      name: 'absences',
      path: '/v1/company/time-offs',
      params: (c) => ({ start_date: c.start_date, end_date: today() }),
      // time-offs and attendances count `offset` in pages
      paginator: { type: 'page_number', page_param: 'offset', start_page: 0, page_size_param: 'limit', page_size: 200, total_pages_path: 'metadata.total_pages' },
      map: attributes,
      primaryKey: ['id'],
    },
    {
      name: 'attendances',
      path: '/v1/company/attendances',
      params: (c) => ({ start_date: c.start_date, end_date: today(), includePending: true }),
      paginator: { type: 'page_number', page_param: 'offset', start_page: 0, page_size_param: 'limit', page_size: 200, total_pages_path: 'metadata.total_pages' },
      map: (r) => ({ id: r.id, ...attributes(r) }),
      primaryKey: ['id'],
    },
  ],
});
