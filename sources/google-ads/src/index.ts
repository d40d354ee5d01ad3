import { declareRestSource, Type, type AuthSpec, type ResourceRun } from '@basin/sdk';

// The five default reports of SPEC (campaign, ad group, keyword, ad, search term stats), in GAQL
const DEFAULT_QUERIES = [
  { name: 'campaign_stats', query: 'SELECT campaign.id, campaign.name, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM campaign' },
  { name: 'ad_group_stats', query: 'SELECT ad_group.id, ad_group.name, campaign.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM ad_group' },
  { name: 'keyword_stats', query: 'SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, ad_group.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros FROM keyword_view' },
  { name: 'ad_stats', query: 'SELECT ad_group_ad.ad.id, ad_group.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM ad_group_ad' },
  { name: 'search_term_stats', query: 'SELECT search_term_view.search_term, ad_group.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros FROM search_term_view' },
];
const SCOPES = ['https://www.googleapis.com/auth/adwords'];
const VERSION = 'v17';
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** A search result `{campaign: {id}, metrics: {costMicros: "12"}}` as GAQL-named columns `campaign_id`, `metrics_cost_micros` (int64 strings as numbers). */
export function resultRecord(result: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (v: unknown, prefix: string) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) walk(x, prefix ? `${prefix}_${snake(k)}` : snake(k));
    else out[prefix] = typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) && prefix.startsWith('metrics_') ? Number(v) : Array.isArray(v) ? JSON.stringify(v) : v;
  };
  walk(result, '');
  return out;
}

/** The query restricted to the run's days: `segments.date BETWEEN` from the cursor (or start) to yesterday. */
export function withDateRange(query: string, from: string, to: string): string {
  const range = `segments.date BETWEEN '${from}' AND '${to}'`;
  const m = /\b(ORDER\s+BY|LIMIT|PARAMETERS)\b/i.exec(query);
  const head = m ? query.slice(0, m.index).trimEnd() : query.trimEnd();
  const tail = m ? ` ${query.slice(m.index)}` : '';
  return /\bWHERE\b/i.test(head) ? `${head} AND ${range}${tail}` : `${head} WHERE ${range}${tail}`;
}

function googleAuth(c: { access_token_env?: string; credentials_env: string }): AuthSpec {
  if (c.access_token_env) return { kind: 'oauth2_token', provider: 'Google', tokenEnv: c.access_token_env };
  return { kind: 'google_service_account', credentialsEnv: c.credentials_env, scopes: SCOPES };
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

type Config = { property_id: string | number; developer_token_env: string; login_customer_id?: string; start_date?: string; initial_load_past_days: number };

function gaql(q: { name: string; query: string }) {
  return async function* <C extends Config>(run: ResourceRun<C>): AsyncGenerator<Record<string, unknown>[]> {
    const c = run.config;
    const customer = String(c.property_id).replace(/-/g, '');
    const dated = /\bsegments\.date\b/.test(q.query);
    const from = run.cursor?.start !== undefined ? String(run.cursor.start).slice(0, 10) : (c.start_date ?? day(Date.now() - c.initial_load_past_days * 86_400_000));
    const to = run.ctx.options.endDate ?? day(Date.now() - 86_400_000);
    if (dated && from > to) return;
    const headers: Record<string, string> = { 'developer-token': run.ctx.secret(c.developer_token_env) };
    if (c.login_customer_id) headers['login-customer-id'] = c.login_customer_id.replace(/-/g, '');
    let pageToken: string | undefined;
    do {
      const body = (await run.fetchJson(`/${VERSION}/customers/${customer}/googleAds:search`, { method: 'POST', headers, json: { query: dated ? withDateRange(q.query, from, to) : q.query, ...(pageToken ? { pageToken } : {}) } })) as {
        results?: Record<string, unknown>[];
        nextPageToken?: string;
      };
      const rows = (body.results ?? []).map(resultRecord);
      if (rows.length) yield rows;
      pageToken = body.nextPageToken || undefined;
    } while (pageToken);
  };
}

/**
 * Google Ads API: each GAQL query (five default reports) is a table, read with
 * `googleAds:search` and `nextPageToken`, restricted to the days since the last sync
 * (`segments.date`, complete days up to yesterday). Auth: a service-account key or an OAuth
 * access token, plus the developer token; `login_customer_id` for manager accounts.
 */
export default declareRestSource({
  type: 'google_ads',
  title: 'Google Ads',
  category: 'marketing',
  authKind: 'oauth2',
  // provider OAuth (/oauth/connect/{type}): the project's OAuth client in GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET
  oauth: {
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scopes: ['https://www.googleapis.com/auth/adwords'],
    clientIdEnv: 'GOOGLE_CLIENT_ID',
    clientSecretEnv: 'GOOGLE_CLIENT_SECRET',
    // without these Google sends no refresh token
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
  },
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      // the customer id, written 123-456-7890 or 1234567890 (a number when unquoted in YAML)
      property_id: Type.Union([Type.String({ pattern: '^[0-9]{3}-?[0-9]{3}-?[0-9]{4}$' }), Type.Integer({ minimum: 1 })]),
      credentials_env: Type.String({ minLength: 1, default: 'GOOGLE_ADS_CREDENTIALS', description: 'name of the environment variable holding the service-account key JSON' }),
      access_token_env: Type.Optional(Type.String({ minLength: 1, description: 'name of the environment variable holding an OAuth access token (instead of a service account)' })),
      developer_token_env: Type.String({ minLength: 1, default: 'GOOGLE_ADS_DEVELOPER_TOKEN', description: 'name of the environment variable holding the developer token' }),
      login_customer_id: Type.Optional(Type.String({ pattern: '^[0-9]{3}-?[0-9]{3}-?[0-9]{4}$', description: 'manager account id, when access goes through one' })),
      queries: Type.Array(Type.Object({ name: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), query: Type.String({ minLength: 1 }) }, { additionalProperties: false }), {
        default: DEFAULT_QUERIES,
        minItems: 1,
      }),
      start_date: Type.Optional(Type.String({ pattern: DATE })),
      initial_load_past_days: Type.Integer({ minimum: 1, default: 30 }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://googleads.googleapis.com' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: true, performanceMetrics: true },
  resources: DEFAULT_QUERIES.map((q) => ({ name: q.name, cursorField: 'segments_date', writeDisposition: 'append' as const })),
  defaultResources: DEFAULT_QUERIES.map((q) => q.name),
  selected: (c) => c.queries.map((q) => q.name),
  connection: (c) => ({ baseUrl: c.base_url, auth: googleAuth(c) }),
  endpoints: [],
  async dynamicEndpoints(ctx) {
    // a query without segments.date cannot be incremental: it is read whole and replaces its table
    return ctx.config.queries.map((q) => ({
      name: q.name,
      ...(/\bsegments\.date\b/.test(q.query) ? { incremental: { cursorField: 'segments_date' } } : { writeDisposition: 'replace' as const }),
      read: gaql(q),
    }));
  },
  async check(ctx, client) {
    const customer = String(ctx.config.property_id).replace(/-/g, '');
    const res = await client.request(`/${VERSION}/customers/${customer}/googleAds:search`, {
      method: 'POST',
      headers: { 'developer-token': ctx.secret(ctx.config.developer_token_env) },
      json: { query: 'SELECT customer.id FROM customer LIMIT 1' },
    });
    return `Google Ads answered ${res.status} for customer ${customer}.`;
  },
});
