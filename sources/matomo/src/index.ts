import { declareRestSource, Type, type QueryValue } from '@basin/sdk';

const RESOURCES = ['reports', 'visits'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const METHOD = '^[A-Z][A-Za-z]+\\.[a-z][A-Za-z]+$';

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Matomo Reporting API with a `token_auth` (sent as a GET parameter, as Matomo documents it):
 * `reports` runs each configured report method per day (`period=day`, a date range up to
 * yesterday, incremental by `date`), one row per day and report row, tagged with `report`;
 * `visits` reads the visit log (`Live.getLastVisitsDetails`) from the last `serverTimestamp` on.
 */
export default declareRestSource({
  type: 'matomo',
  title: 'Matomo',
  category: 'analytics',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      url: Type.String({ pattern: '^https?://', description: 'your Matomo server (https://analytics.example.com)' }),
      site_id: Type.Integer({ minimum: 1, description: 'idSite of the website' }),
      token_env: Type.String({ minLength: 1, default: 'MATOMO_TOKEN', description: 'name of the environment variable holding the token_auth' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: RESOURCES, minItems: 1, uniqueItems: true }),
      reports: Type.Array(Type.String({ pattern: METHOD }), { default: ['VisitsSummary.get', 'Actions.getPageUrls', 'Referrers.getReferrerType'], minItems: 1, uniqueItems: true, description: 'Reporting API methods' }),
      start_date: Type.String({ pattern: DATE, default: '2024-01-01', description: 'first day of the first sync' }),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: true, performanceMetrics: true },
  defaultResources: RESOURCES,
  connection: (c) => ({ baseUrl: c.url, auth: { kind: 'api_key', name: 'token_auth', location: 'query', keyEnv: c.token_env, field: 'token_env' } }),
  selected: (c) => c.resources,
  responseError(body) {
    const b = body as { result?: string; message?: string } | null;
    if (!b || Array.isArray(b) || b.result !== 'error') return null;
    const message = String(b.message ?? 'error');
    return { auth: /token_auth|access|authenticat/i.test(message), message };
  },
  endpoints: [
    {
      name: 'reports',
      primaryKey: ['report', 'date', 'label'],
      incremental: { cursorField: 'date', initialValue: (c) => c.start_date },
      async *read(run) {
        const from = String(run.cursor?.start ?? run.config.start_date).slice(0, 10);
        const to = run.ctx.options.endDate ?? day(Date.now() - 86_400_000); // complete days only
        if (from > to) return;
        for (const method of run.config.reports) {
          const params: Record<string, QueryValue> = { module: 'API', method, idSite: run.config.site_id, period: 'day', date: `${from},${to}`, format: 'JSON', filter_limit: -1 };
          const body = (await run.fetchJson('/index.php', { params })) as Record<string, unknown> | null;
          const rows: Record<string, unknown>[] = [];
          // a day-range answer is {"YYYY-MM-DD": {metrics} | [rows]}
          for (const [date, value] of Object.entries(body ?? {})) {
            if (Array.isArray(value)) for (const r of value as Record<string, unknown>[]) rows.push({ report: method, date, ...r, label: r.label ?? '' });
            else if (value && typeof value === 'object') rows.push({ report: method, date, label: '', ...(value as Record<string, unknown>) });
          }
          if (rows.length) yield rows;
        }
      },
    },
    {
      name: 'visits',
      path: '/index.php',
      params: (c) => ({ module: 'API', method: 'Live.getLastVisitsDetails', idSite: c.site_id, period: 'range', date: `${c.start_date},today`, format: 'JSON', filter_sort_order: 'asc' }),
      paginator: { type: 'offset', offset_param: 'filter_offset', limit_param: 'filter_limit', limit: 100 },
      primaryKey: ['idVisit'],
      incremental: { cursorField: 'serverTimestamp', param: 'minTimestamp' },
    },
  ],
  async check(ctx, client) {
    const res = await client.get('/index.php', { module: 'API', method: 'SitesManager.getSiteFromId', idSite: ctx.config.site_id, format: 'JSON' });
    const b = res.body as { result?: string; message?: string; name?: string } | null;
    if (b?.result === 'error') throw new Error(`Matomo refused: ${client.auth.redact(String(b.message))}; check ${client.auth.hint()}.`);
    return `Matomo answered for site ${b?.name ?? ctx.config.site_id}.`;
  },
});
