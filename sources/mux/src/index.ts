import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['assets', 'views'];
const DAY = 86_400;

/**
 * Mux with an access token id and secret (basic auth): video assets (Video API, replaced each
 * sync) and video views (Data API, incremental by `view_end`: a later sync asks for the
 * `timeframe[]` from the last view on; the first one for `initial_load_past_days`). Paged by
 * `page`/`limit`. `generic_config`.
 */
export default declareRestSource({
  type: 'mux',
  title: 'Mux',
  category: 'analytics',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      access_token_id_env: Type.String({ minLength: 1, default: 'MUX_TOKEN_ID', description: 'name of the environment variable holding the access token id' }),
      access_token_secret_env: Type.String({ minLength: 1, default: 'MUX_TOKEN_SECRET', description: 'name of the environment variable holding the access token secret' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      initial_load_past_days: Type.Integer({ minimum: 1, maximum: 100, default: 30, description: 'days of views read by the first sync' }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.mux.com' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: true },
  defaultResources: RESOURCES,
  connection: (c) => ({
    baseUrl: c.base_url,
    auth: { kind: 'basic', usernameEnv: c.access_token_id_env, usernameField: 'access_token_id_env', passwordEnv: c.access_token_secret_env, passwordField: 'access_token_secret_env' },
  }),
  selected: (c) => c.resources,
  paginator: { type: 'page_number', page_param: 'page', start_page: 1, page_size_param: 'limit', page_size: 100 },
  dataSelector: 'data',
  endpoints: [
    { name: 'assets', path: '/video/v1/assets', primaryKey: ['id'] },
    {
      name: 'views',
      primaryKey: ['id'],
      incremental: { cursorField: 'view_end' },
      async *read(run) {
        const now = Math.floor(Date.now() / 1000);
        const start = run.cursor?.start;
        const from = start === undefined ? now - run.config.initial_load_past_days * DAY : Math.floor(Date.parse(String(start)) / 1000);
        // timeframe[] is a repeated parameter: it goes in the path
        yield* run.pages(`/data/v1/video-views?timeframe[]=${from}&timeframe[]=${now}`);
      },
    },
  ],
});
