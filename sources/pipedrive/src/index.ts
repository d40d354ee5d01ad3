import { declareRestSource, getPath, Type, type Paginator } from '@basin/sdk';

const RESOURCES = ['activities', 'deals', 'organizations', 'persons', 'pipelines', 'products', 'stages', 'users'];
/** resources read through /v1/recents (incremental), with their item type */
const RECENT: Record<string, string> = { activities: 'activity', deals: 'deal', organizations: 'organization', persons: 'person', products: 'product' };
const PAGE = 500;

/** `start`/`limit` while `additional_data.pagination.more_items_in_collection`. */
function startPaging(): Paginator {
  return {
    first: (req) => ({ url: req.url, params: { ...req.params, start: 0, limit: PAGE } }),
    next(res, _records, req) {
      const p = getPath(res.body, 'additional_data.pagination') as { more_items_in_collection?: boolean; next_start?: number } | undefined;
      if (!p?.more_items_in_collection || typeof p.next_start !== 'number') return null;
      return { url: req.url, params: { ...req.params, start: p.next_start } };
    },
  };
}

/** Pipedrive timestamps are UTC `YYYY-MM-DD HH:MM:SS`. */
const pipedriveTime = (v: string | number) => {
  const t = Date.parse(typeof v === 'string' && / \d/.test(v) ? `${v.replace(' ', 'T')}Z` : String(v));
  return new Date(Number.isNaN(t) ? 0 : t).toISOString().slice(0, 19).replace('T', ' ');
};

/**
 * Pipedrive API v1 with an API token (sent as `api_token`): deals, persons, organizations,
 * activities and products through `/v1/recents` (incremental by `update_time` with
 * `since_timestamp`), pipelines, stages and users as lists; paged by `start`/`more_items_in_collection`.
 */
export default declareRestSource({
  type: 'pipedrive',
  title: 'Pipedrive',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      api_token_env: Type.String({ minLength: 1, default: 'PIPEDRIVE_API_TOKEN', description: 'name of the environment variable holding the API token' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      company_domain: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'your COMPANY.pipedrive.com (default api.pipedrive.com)' })),
      base_url: Type.Optional(Type.String({ pattern: '^https?://' })),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({
    baseUrl: c.base_url ?? (c.company_domain ? `https://${c.company_domain}.pipedrive.com/api` : 'https://api.pipedrive.com'),
    auth: { kind: 'api_key', name: 'api_token', location: 'query', keyEnv: c.api_token_env, field: 'api_token_env' },
  }),
  selected: (c) => c.resources,
  paginator: startPaging,
  dataSelector: 'data',
  responseError: (body) => {
    const b = body as { success?: boolean; error?: string } | null;
    return b && b.success === false ? { auth: false, message: String(b.error) } : null;
  },
  endpoints: RESOURCES.map((name) =>
    RECENT[name]
      ? {
          name,
          path: '/v1/recents',
          params: { items: RECENT[name]! },
          primaryKey: ['id'],
          map: (r: Record<string, unknown>) => (r.data && typeof r.data === 'object' ? (r.data as Record<string, unknown>) : null),
          incremental: { cursorField: 'update_time', param: 'since_timestamp', format: pipedriveTime, initialValue: () => '1970-01-01 00:00:00' },
        }
      : { name, path: `/v1/${name}`, primaryKey: ['id'] },
  ),
});
