import { declareRestSource, Type, type QueryValue, type ResourceRun } from '@basin/sdk';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const DEFAULTS = ['campaigns', 'ads', 'ad_sets', 'insights'];
const RESOURCES = [...DEFAULTS, 'ad_creatives', 'leads'];
const VERSION = 'v20.0';

const FIELDS: Record<string, string> = {
  campaigns: 'id,name,objective,status,effective_status,daily_budget,lifetime_budget,start_time,stop_time,created_time,updated_time',
  ads: 'id,name,adset_id,campaign_id,status,effective_status,creative{id},created_time,updated_time',
  ad_sets: 'id,name,campaign_id,status,effective_status,daily_budget,optimization_goal,billing_event,targeting,created_time,updated_time',
  ad_creatives: 'id,name,title,body,object_type,thumbnail_url,status',
  leads: 'id,created_time,ad_id,form_id,field_data',
};
const INSIGHT_FIELDS = 'date_start,date_stop,account_id,campaign_id,adset_id,ad_id,ad_name,impressions,clicks,spend,reach,cpc,cpm,ctr,actions';
/** Graph API error codes: 190 invalid token, 102 session; 4/17/32/613/80000-80014 throttling */
const AUTH_CODES = new Set([102, 190]);
const THROTTLE_CODES = new Set([4, 17, 32, 613, 80000, 80003, 80004, 80005, 80006, 80008, 80014]);

function graphError(body: string): { code?: number } | null {
  try {
    return (JSON.parse(body) as { error?: { code?: number } }).error ?? null;
  } catch {
    return null;
  }
}

/** An account edge, filtered on `updated_time` from the cursor on (one second early: the filter is strict). */
const listEdge =
  (name: 'campaigns' | 'ads' | 'ad_sets') =>
  <C extends { account_id: string }>(run: ResourceRun<C>) => {
    const edge = name === 'ad_sets' ? 'adsets' : name;
    const params: Record<string, QueryValue> = { fields: FIELDS[name]!, limit: 100 };
    const start = run.cursor?.start;
    if (start !== undefined) params.filtering = JSON.stringify([{ field: 'updated_time', operator: 'GREATER_THAN', value: unix(start) - 1 }]);
    return run.pages(`${run.config.account_id}/${edge}`, { params });
  };

const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const unix = (v: string | number) => (typeof v === 'number' ? v : Math.floor(Date.parse(v) / 1000));

/**
 * Facebook Marketing API (Graph API) with a long-lived access token (the provider OAuth store's
 * seam; today an environment variable): campaigns, ads and ad sets (incremental by
 * `updated_time` with a `filtering` on it), ad creatives, leads of each ad, and daily ad-level
 * insights (incremental by `date_start`; the first sync covers `initial_load_past_days` or
 * `start_date`). Pages by `paging.next`; throttling answers (400 with code 17, 80004...) back off.
 */
export default declareRestSource({
  type: 'facebook_ads',
  title: 'Facebook Ads',
  category: 'marketing',
  authKind: 'oauth2',
  // provider OAuth (/oauth/connect/facebook_ads): long-lived tokens, no refresh token
  oauth: {
    authorizationUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
    scopes: ['ads_read'],
    clientIdEnv: 'FACEBOOK_APP_ID',
    clientSecretEnv: 'FACEBOOK_APP_SECRET',
  },
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      account_id: Type.String({ pattern: '^act_[0-9]+$', description: 'ad account id with its act_ prefix, e.g. act_123456789' }),
      access_token_env: Type.String({ minLength: 1, default: 'FACEBOOK_ACCESS_TOKEN', description: 'name of the environment variable holding the long-lived access token' }),
      initial_load_past_days: Type.Integer({ minimum: 1, default: 30 }),
      start_date: Type.Optional(Type.String({ pattern: DATE })),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://graph.facebook.com' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: true },
  defaultResources: DEFAULTS,
  connection: (c) => ({
    baseUrl: `${c.base_url.replace(/\/$/, '')}/${VERSION}`,
    auth: { kind: 'oauth2_token', provider: 'Facebook', tokenEnv: c.access_token_env },
    classifyError(status, body) {
      const code = graphError(body)?.code;
      if (code === undefined || status < 400) return null;
      return AUTH_CODES.has(code) ? 'auth' : THROTTLE_CODES.has(code) ? 'rate_limit' : null;
    },
  }),
  selected: (c) => c.resources,
  paginator: { type: 'next_url', next_url_path: 'paging.next' },
  dataSelector: 'data',
  endpoints: [
    ...(['campaigns', 'ads', 'ad_sets'] as const).map((name) => ({
      name,
      primaryKey: ['id'],
      incremental: { cursorField: 'updated_time' },
      read: listEdge(name),
    })),
    { name: 'ad_creatives', path: (c) => `${c.account_id}/adcreatives`, params: { fields: FIELDS.ad_creatives!, limit: 100 }, primaryKey: ['id'] },
    { name: 'leads', path: '{ad_id}/leads', params: { fields: FIELDS.leads!, limit: 100 }, parent: { resource: 'ads', field: 'id', as: 'ad_id' }, primaryKey: ['id'] },
    {
      name: 'insights',
      primaryKey: ['ad_id', 'date_start'],
      incremental: { cursorField: 'date_start', initialValue: (c) => c.start_date },
      async *read(run) {
        const until = run.ctx.options.endDate ?? day(Date.now());
        const since = run.cursor?.start !== undefined ? String(run.cursor.start).slice(0, 10) : day(Date.now() - run.config.initial_load_past_days * 86_400_000);
        if (since > until) return;
        const params = { level: 'ad', time_increment: 1, time_range: JSON.stringify({ since, until }), fields: INSIGHT_FIELDS, limit: 500 };
        yield* run.pages(`${run.config.account_id}/insights`, { params });
      },
    },
  ],
  async check(ctx, client) {
    const res = await client.get(ctx.config.account_id, { fields: 'id,name,account_status' });
    return `Facebook answered ${res.status} for ${ctx.config.account_id}.`;
  },
});
