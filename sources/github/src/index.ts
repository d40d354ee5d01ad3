import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['issues', 'pull_requests', 'reactions', 'stargazers', 'repo_events'];
// GitHub's own rules: owners are letters, digits and single hyphens; repository names add `.` and `_`
const OWNER = '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$';
const REPO = '^[A-Za-z0-9._-]{1,100}$';

/**
 * GitHub REST API v3 for one repository: issues (incremental with `since`), pull requests and
 * repository events (incremental by their timestamps, filtered here: the API has no `since` for
 * them), reactions per issue, stargazers with `starred_at`. Pages through the `Link` header;
 * waits out primary (`x-ratelimit-reset`) and secondary (`Retry-After`) rate limits.
 */
export default declareRestSource({
  type: 'github',
  title: 'GitHub',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      access_token_env: Type.String({ minLength: 1, default: 'GITHUB_TOKEN', description: 'name of the environment variable holding the access token' }),
      owner: Type.String({ pattern: OWNER, description: 'user or organisation owning the repository' }),
      name: Type.String({ pattern: REPO, description: 'repository name' }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.github.com', description: 'API root (GitHub Enterprise: https://HOST/api/v3)' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({
    baseUrl: c.base_url,
    auth: { kind: 'bearer', tokenEnv: c.access_token_env, field: 'access_token_env' },
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  }),
  paginator: { type: 'link_header' },
  endpoints: [
    {
      name: 'issues',
      path: (c) => `/repos/${c.owner}/${c.name}/issues`,
      params: { state: 'all', sort: 'updated', direction: 'asc', per_page: 100 },
      primaryKey: ['id'],
      incremental: { cursorField: 'updated_at', param: 'since' },
      // the issues list also returns pull requests; they have their own table
      map: (r) => (r.pull_request ? null : r),
    },
    {
      name: 'pull_requests',
      path: (c) => `/repos/${c.owner}/${c.name}/pulls`,
      params: { state: 'all', sort: 'updated', direction: 'desc', per_page: 100 },
      primaryKey: ['id'],
      incremental: { cursorField: 'updated_at' },
    },
    {
      name: 'reactions',
      path: (c) => `/repos/${c.owner}/${c.name}/issues/{issue_number}/reactions`,
      params: { per_page: 100 },
      parent: { resource: 'issues', field: 'number', as: 'issue_number' },
      primaryKey: ['id'],
      writeDisposition: 'replace',
    },
    {
      name: 'stargazers',
      path: (c) => `/repos/${c.owner}/${c.name}/stargazers`,
      params: { per_page: 100 },
      headers: { accept: 'application/vnd.github.star+json' },
      // the star+json media type adds starred_at to each stargazer
      map: (r) => ({ starred_at: r.starred_at, ...(r.user as Record<string, unknown>) }),
      primaryKey: ['id'],
      writeDisposition: 'replace',
    },
    {
      name: 'repo_events',
      path: (c) => `/repos/${c.owner}/${c.name}/events`,
      params: { per_page: 100 },
      primaryKey: ['id'],
      incremental: { cursorField: 'created_at' },
    },
  ],
});
