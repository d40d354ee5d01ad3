import { declareRestSource, getPath, Type, type Paginator } from '@basin/sdk';

const RESOURCES = ['tickets', 'ticket_fields', 'ticket_events', 'ticket_metric_events'];
const DEFAULTS = ['tickets', 'ticket_fields'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

const unixSeconds = (v: string | number) => (typeof v === 'number' ? v : Math.floor(Date.parse(v) / 1000));

/** Cursor-based incremental export: `after_cursor` until `end_of_stream`. */
function exportCursor(): Paginator {
  return {
    first: (req) => req,
    next(res, _records, req) {
      const after = getPath(res.body, 'after_cursor');
      if (getPath(res.body, 'end_of_stream') === true || typeof after !== 'string' || !after) return null;
      return { url: req.url, params: { cursor: after } };
    },
  };
}

/** Time-based incremental export: `next_page` until `end_of_stream` (the last page still has a next_page). */
function exportNextPage(): Paginator {
  return {
    first: (req) => req,
    next(res) {
      const next = getPath(res.body, 'next_page');
      if (getPath(res.body, 'end_of_stream') === true || typeof next !== 'string' || !next) return null;
      return { url: new URL(next, res.url).href, params: {} };
    },
  };
}

/**
 * Zendesk Support API with an agent e-mail and API token (`email/token` basic auth): tickets by
 * the cursor-based incremental export (incremental by `updated_at` via `start_time`), ticket
 * fields, ticket events and ticket metric events by the time-based export. `generic_config`.
 */
export default declareRestSource({
  type: 'zendesk',
  title: 'Zendesk',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      subdomain: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'the part before .zendesk.com' }),
      email: Type.String({ minLength: 3, description: 'agent e-mail the API token belongs to' }),
      api_token_env: Type.String({ minLength: 1, default: 'ZENDESK_API_TOKEN', description: 'name of the environment variable holding the API token' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
      start_date: Type.String({ pattern: DATE, default: '2000-01-01', description: 'first day of the first sync' }),
      base_url: Type.Optional(Type.String({ pattern: '^https?://', description: 'API root (default https://SUBDOMAIN.zendesk.com)' })),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  defaultResources: DEFAULTS,
  connection: (c) => ({
    baseUrl: c.base_url ?? `https://${c.subdomain}.zendesk.com`,
    auth: { kind: 'basic', username: `${c.email}/token`, usernameEnv: '', passwordEnv: c.api_token_env, passwordField: 'api_token_env' },
  }),
  selected: (c) => c.resources,
  endpoints: [
    {
      name: 'tickets',
      path: '/api/v2/incremental/tickets/cursor.json',
      dataSelector: 'tickets',
      paginator: exportCursor,
      primaryKey: ['id'],
      incremental: { cursorField: 'updated_at', param: 'start_time', format: unixSeconds, initialValue: (c) => c.start_date },
    },
    { name: 'ticket_fields', path: '/api/v2/ticket_fields.json', dataSelector: 'ticket_fields', paginator: { type: 'next_url', next_url_path: 'next_page' }, primaryKey: ['id'] },
    {
      name: 'ticket_events',
      path: '/api/v2/incremental/ticket_events.json',
      dataSelector: 'ticket_events',
      paginator: exportNextPage,
      primaryKey: ['id'],
      incremental: { cursorField: 'created_at', param: 'start_time', format: unixSeconds, initialValue: (c) => c.start_date },
    },
    {
      name: 'ticket_metric_events',
      path: '/api/v2/incremental/ticket_metric_events.json',
      dataSelector: 'ticket_metric_events',
      paginator: exportNextPage,
      primaryKey: ['id'],
      incremental: { cursorField: 'time', param: 'start_time', format: unixSeconds, initialValue: (c) => c.start_date },
    },
  ],
  async check(_ctx, client) {
    // users/me answers an anonymous user to bad credentials; ticket_fields needs an agent
    const res = await client.get('/api/v2/ticket_fields.json');
    return `Zendesk answered ${res.status}.`;
  },
});
