import { declareRestSource, Type, type AuthSpec, type ResourceRun } from '@basin/sdk';

// The Data API accepts absolute dates and the relative forms today, yesterday and NdaysAgo
const START = '^(\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])|today|yesterday|[0-9]+daysAgo)$';
const SCOPES = ['https://www.googleapis.com/auth/analytics.readonly'];
const PAGE = 10_000;
const NUMERIC = new Set(['TYPE_INTEGER', 'TYPE_FLOAT', 'TYPE_SECONDS', 'TYPE_MILLISECONDS', 'TYPE_MINUTES', 'TYPE_HOURS', 'TYPE_STANDARD', 'TYPE_CURRENCY', 'TYPE_FEET', 'TYPE_MILES', 'TYPE_METERS', 'TYPE_KILOMETERS']);
const DEFAULT_QUERIES = [{ name: 'reports', dimensions: ['date'], metrics: ['activeUsers', 'sessions', 'screenPageViews', 'conversions'] }];

interface Query {
  name: string;
  dimensions: string[];
  metrics: string[];
}

function googleAuth(c: { access_token_env?: string; credentials_env: string }): AuthSpec {
  if (c.access_token_env) return { kind: 'oauth2_token', provider: 'Google', tokenEnv: c.access_token_env };
  return { kind: 'google_service_account', credentialsEnv: c.credentials_env, scopes: SCOPES };
}

interface ReportBody {
  dimensionHeaders?: Array<{ name: string }>;
  metricHeaders?: Array<{ name: string; type?: string }>;
  rows?: Array<{ dimensionValues?: Array<{ value?: string }>; metricValues?: Array<{ value?: string }> }>;
  rowCount?: number;
}

/** runReport rows as records: dimensions as text (`date` as YYYY-MM-DD), numeric metrics as numbers. */
export function reportRecords(body: ReportBody): Record<string, unknown>[] {
  const dims = body.dimensionHeaders ?? [];
  const mets = body.metricHeaders ?? [];
  return (body.rows ?? []).map((row) => {
    const rec: Record<string, unknown> = {};
    dims.forEach((d, i) => {
      const v = row.dimensionValues?.[i]?.value ?? null;
      rec[d.name] = d.name === 'date' && v && /^\d{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6)}` : v;
    });
    mets.forEach((m, i) => {
      const v = row.metricValues?.[i]?.value ?? null;
      rec[m.name] = v !== null && NUMERIC.has(m.type ?? '') ? Number(v) : v;
    });
    return rec;
  });
}

/** One report query by runReport, paged by offset; from the cursor's day (or start_date) to yesterday (complete days). */
function runReport(q: Query) {
  return async function* <C extends { property_id: string | number; start_date?: string }>(run: ResourceRun<C>): AsyncGenerator<Record<string, unknown>[]> {
    const startDate = run.cursor?.start !== undefined ? String(run.cursor.start).slice(0, 10) : (run.config.start_date ?? '30daysAgo');
    const endDate = run.ctx.options.endDate ?? 'yesterday';
    for (let offset = 0; ; offset += PAGE) {
      const body = (await run.fetchJson(`/v1beta/properties/${run.config.property_id}:runReport`, {
        method: 'POST',
        json: {
          dateRanges: [{ startDate, endDate }],
          dimensions: q.dimensions.map((name) => ({ name })),
          metrics: q.metrics.map((name) => ({ name })),
          limit: PAGE,
          offset,
          ...(q.dimensions.includes('date') ? { orderBys: [{ dimension: { dimensionName: 'date' } }] } : {}),
        },
      })) as ReportBody;
      const rows = reportRecords(body);
      if (rows.length) yield rows;
      if (rows.length < PAGE || offset + PAGE >= Number(body.rowCount ?? 0)) return;
    }
  };
}

/**
 * Google Analytics 4 Data API: each query (dimensions and metrics; default one daily `reports`
 * table) is a table read with `runReport`, incremental by `date` up to yesterday, merged on its
 * dimensions; `metadata` lists the property's dimensions and metrics. Auth: a service-account
 * key (add its e-mail as a property viewer) or an OAuth access token.
 */
export default declareRestSource({
  type: 'google_analytics',
  title: 'Google Analytics',
  category: 'analytics',
  authKind: 'oauth2',
  // provider OAuth (/oauth/connect/{type}): the project's OAuth client in GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET
  oauth: {
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scopes: ['https://www.googleapis.com/auth/analytics.readonly'],
    clientIdEnv: 'GOOGLE_CLIENT_ID',
    clientSecretEnv: 'GOOGLE_CLIENT_SECRET',
    // without these Google sends no refresh token
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
  },
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      // YAML reads an unquoted id as a number; both spellings are the same property
      property_id: Type.Union([Type.String({ pattern: '^[0-9]+$' }), Type.Integer({ minimum: 1 })]),
      credentials_env: Type.String({ minLength: 1, default: 'GOOGLE_ANALYTICS_CREDENTIALS', description: 'name of the environment variable holding the service-account key JSON' }),
      access_token_env: Type.Optional(Type.String({ minLength: 1, description: 'name of the environment variable holding an OAuth access token (instead of a service account)' })),
      start_date: Type.Optional(Type.String({ pattern: START })),
      queries: Type.Array(
        Type.Object(
          {
            name: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
            dimensions: Type.Array(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_:]*$' }), { minItems: 1, maxItems: 9 }),
            metrics: Type.Array(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_:]*$' }), { minItems: 1, maxItems: 10 }),
          },
          { additionalProperties: false },
        ),
        { default: DEFAULT_QUERIES, minItems: 1 },
      ),
      base_url: Type.String({ pattern: '^https?://', default: 'https://analyticsdata.googleapis.com' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: true, performanceMetrics: true },
  resources: [{ name: 'metadata', writeDisposition: 'replace' }, { name: 'reports', primaryKey: ['date'], cursorField: 'date', writeDisposition: 'merge' }],
  connection: (c) => ({ baseUrl: c.base_url, auth: googleAuth(c) }),
  validateConfig: (c) => {
    const names = c.queries.map((q) => q.name);
    return names.flatMap((n, i) => (n === 'metadata' || names.indexOf(n) !== i ? [{ path: `/queries/${i}/name`, message: `query name "${n}" is taken` }] : []));
  },
  endpoints: [
    {
      name: 'metadata',
      primaryKey: ['kind', 'apiName'],
      async *read(run) {
        const body = (await run.fetchJson(`/v1beta/properties/${run.config.property_id}/metadata`)) as { dimensions?: Record<string, unknown>[]; metrics?: Record<string, unknown>[] };
        const rows = [...(body.dimensions ?? []).map((d) => ({ kind: 'dimension', ...d })), ...(body.metrics ?? []).map((m) => ({ kind: 'metric', ...m }))];
        if (rows.length) yield rows;
      },
    },
  ],
  async dynamicEndpoints(ctx) {
    return ctx.config.queries.map((q) => ({
      name: q.name,
      primaryKey: q.dimensions,
      ...(q.dimensions.includes('date') ? { incremental: { cursorField: 'date' } } : { writeDisposition: 'replace' as const }),
      read: runReport(q),
    }));
  },
  selected: (c) => ['metadata', ...c.queries.map((q) => q.name)],
  async check(ctx, client) {
    const res = await client.get(`/v1beta/properties/${ctx.config.property_id}/metadata`);
    return `Google Analytics answered ${res.status} for property ${ctx.config.property_id}.`;
  },
});
