import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['issues', 'projects', 'users', 'workflows'];
const PAGE = 100;

/** JQL dates are minutes in the user's time zone: ask from a day before the cursor, the cursor drops what was loaded. */
function jqlSince(v: string | number): string {
  const t = Date.parse(String(v)) - 86_400_000;
  return new Date(Number.isNaN(t) ? 0 : t).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * Jira Cloud REST API v3 with an Atlassian account e-mail and API token (basic auth): issues by
 * JQL (`/search/jql`, `nextPageToken`), incremental by `fields.updated`; projects, users and
 * workflows paged by `startAt`. Configured in `generic_config`.
 */
export default declareRestSource({
  type: 'jira',
  title: 'Jira',
  category: 'productivity',
  authKind: 'basic',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      subdomain: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'the part before .atlassian.net' }),
      email: Type.String({ minLength: 3, description: 'the Atlassian account e-mail the API token belongs to' }),
      api_token_env: Type.String({ minLength: 1, default: 'JIRA_API_TOKEN', description: 'name of the environment variable holding the API token' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      jql: Type.String({ default: 'order by updated asc', description: 'JQL of the issues to load (an `updated >=` condition is added on incremental syncs)' }),
      base_url: Type.Optional(Type.String({ pattern: '^https?://', description: 'API root (default https://SUBDOMAIN.atlassian.net)' })),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({
    baseUrl: c.base_url ?? `https://${c.subdomain}.atlassian.net`,
    auth: { kind: 'basic', username: c.email, usernameEnv: '', passwordEnv: c.api_token_env, passwordField: 'api_token_env' },
  }),
  selected: (c) => c.resources,
  paginator: { type: 'offset', offset_param: 'startAt', limit_param: 'maxResults', limit: PAGE, total_path: 'total' },
  endpoints: [
    {
      name: 'issues',
      primaryKey: ['id'],
      incremental: { cursorField: 'updated' },
      // the fields become fields__<name> columns; `updated` is lifted for the cursor
      map: (r) => ({ ...r, updated: (r.fields as Record<string, unknown> | undefined)?.updated }),
      async *read(run) {
        const start = run.cursor?.start;
        const order = /\border\s+by\b/i.exec(run.config.jql);
        const where = order ? run.config.jql.slice(0, order.index).trim() : run.config.jql.trim();
        const conds = [where, start !== undefined ? `updated >= "${jqlSince(start)}"` : ''].filter(Boolean).map((c) => `(${c})`);
        const jql = `${conds.join(' AND ')} ${order ? run.config.jql.slice(order.index) : 'order by updated asc'}`.trim();
        yield* run.pages('/rest/api/3/search/jql', {
          params: { jql, maxResults: PAGE, fields: '*all' },
          paginator: { type: 'cursor', cursor_path: 'nextPageToken', cursor_param: 'nextPageToken' },
          dataSelector: 'issues',
        });
      },
    },
    { name: 'projects', path: '/rest/api/3/project/search', dataSelector: 'values', primaryKey: ['id'] },
    { name: 'users', path: '/rest/api/3/users/search', primaryKey: ['accountId'] },
    { name: 'workflows', path: '/rest/api/3/workflow/search', dataSelector: 'values', map: (r) => ({ ...r, workflow_id: (r.id as { name?: string } | undefined)?.name }), primaryKey: ['workflow_id'] },
  ],
  async check(_ctx, client) {
    const res = await client.get('/rest/api/3/myself');
    return `Jira answered ${res.status}.`;
  },
});
