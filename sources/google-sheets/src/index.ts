import { declareRestSource, getPath, Type, type AuthSpec } from '@basin/sdk';

const SCOPES = ['https://www.googleapis.com/auth/spreadsheets.readonly'];

/** The id in a spreadsheet URL (`/spreadsheets/d/<id>/edit`), or the id itself. */
export function spreadsheetId(urlOrId: string): string {
  const m = /\/spreadsheets\/d\/([A-Za-z0-9_-]+)/.exec(urlOrId);
  return m ? m[1]! : urlOrId.trim();
}

/** A range name as a table name: `Sales!A1:D` → `sales_a1_d`. */
export function rangeTable(range: string): string {
  const n = range
    .replace(/'/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return /^[a-z_]/.test(n) ? n : `r_${n || 'range'}`;
}

/** Rows of a values range as records keyed by the header row (blank headers: `col_<n>`); blank rows are skipped. */
export function rowsToRecords(values: unknown[][]): Record<string, unknown>[] {
  if (values.length === 0) return [];
  const header = values[0]!.map((h, i) => (h === '' || h === null || h === undefined ? `col_${i + 1}` : String(h)));
  const out: Record<string, unknown>[] = [];
  for (const row of values.slice(1)) {
    if (row.every((v) => v === '' || v === null || v === undefined)) continue;
    const rec: Record<string, unknown> = {};
    // the API drops trailing empty cells; a row may also be wider than the header
    const width = Math.max(header.length, row.length);
    for (let i = 0; i < width; i++) rec[header[i] ?? `col_${i + 1}`] = row[i] === '' || row[i] === undefined ? null : row[i];
    out.push(rec);
  }
  return out;
}

/** Google credentials: an OAuth access token when `access_token_env` is set, else the service-account key JSON in `credentials_env`. */
export function googleAuth(c: { access_token_env?: string; credentials_env: string }, scopes: string[]): AuthSpec {
  if (c.access_token_env) return { kind: 'oauth2_token', provider: 'Google', tokenEnv: c.access_token_env };
  return { kind: 'google_service_account', credentialsEnv: c.credentials_env, scopes };
}

/**
 * Google Sheets API v4: each listed range (a sheet name or an A1 range) is one table, its first
 * row the header, read with unformatted values. `deduplication` decides what a sync does with
 * the rows already loaded: `latest_only` replaces them, `append_only` and `none` append the new
 * snapshot; `scd_type2` is not supported yet. Auth: a service-account key (share the sheet with
 * its e-mail) or an OAuth access token.
 */
export default declareRestSource({
  type: 'google_sheets',
  title: 'Google Sheets',
  category: 'productivity',
  authKind: 'oauth2',
  // provider OAuth (/oauth/connect/{type}): the project's OAuth client in GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET
  oauth: {
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'],
    clientIdEnv: 'GOOGLE_CLIENT_ID',
    clientSecretEnv: 'GOOGLE_CLIENT_SECRET',
    // without these Google sends no refresh token
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
  },
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      spreadsheet_url_or_id: Type.String({ minLength: 1 }),
      range_names: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'sheet names or A1 ranges; one table each' }),
      deduplication: Type.Union([Type.Literal('none'), Type.Literal('latest_only'), Type.Literal('append_only'), Type.Literal('scd_type2')], { default: 'latest_only' }),
      credentials_env: Type.String({ minLength: 1, default: 'GOOGLE_SHEETS_CREDENTIALS', description: 'name of the environment variable holding the service-account key JSON' }),
      access_token_env: Type.Optional(Type.String({ minLength: 1, description: 'name of the environment variable holding an OAuth access token (instead of a service account)' })),
      base_url: Type.String({ pattern: '^https?://', default: 'https://sheets.googleapis.com' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
  validateConfig: (c) => (c.deduplication === 'scd_type2' ? [{ path: '/deduplication', message: 'scd_type2 is not supported yet; use latest_only, append_only or none' }] : []),
  connection: (c) => ({ baseUrl: c.base_url, auth: googleAuth(c, SCOPES) }),
  endpoints: [],
  async dynamicEndpoints(ctx) {
    const id = spreadsheetId(ctx.config.spreadsheet_url_or_id);
    const disposition = ctx.config.deduplication === 'latest_only' ? 'replace' : 'append';
    return ctx.config.range_names.map((range) => ({
      name: rangeTable(range),
      description: `range ${range}`,
      writeDisposition: disposition,
      async *read(run) {
        const body = await run.fetchJson(`/v4/spreadsheets/${encodeURIComponent(id)}/values/${encodeURIComponent(range)}`, {
          params: { valueRenderOption: 'UNFORMATTED_VALUE', dateTimeRenderOption: 'FORMATTED_STRING', majorDimension: 'ROWS' },
        });
        const rows = rowsToRecords((getPath(body, 'values') as unknown[][] | undefined) ?? []);
        for (let i = 0; i < rows.length; i += 5000) yield rows.slice(i, i + 5000);
      },
    }));
  },
  async check(ctx, client) {
    const id = spreadsheetId(ctx.config.spreadsheet_url_or_id);
    const res = await client.get(`/v4/spreadsheets/${encodeURIComponent(id)}`, { fields: 'properties.title,sheets.properties.title' });
    return `Google Sheets answered for "${String(getPath(res.body, 'properties.title') ?? id)}".`;
  },
});
