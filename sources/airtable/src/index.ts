import { declareRestSource, getPath, Type } from '@basin/sdk';

/** A table name as a Basin table name: lowercase, letters/digits/underscores. */
export function tableName(name: string): string {
  const n = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return /^[a-z_]/.test(n) ? n : `t_${n || 'table'}`;
}

interface AirtableTable {
  id: string;
  name: string;
}

/**
 * Airtable Web API with a personal access token: the tables of one base, discovered from the
 * metadata API (`/v0/meta/bases/{base}/tables`), each read whole (`pageSize`/`offset`) and
 * replaced on every sync. A record's cell values become `fields__<field name>` columns.
 */
export default declareRestSource({
  type: 'airtable',
  title: 'Airtable',
  category: 'database',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      base_id: Type.String({ pattern: '^app[A-Za-z0-9]{3,}$', description: 'the base id (appXXXXXXXXXXXXXX)' }),
      table_names: Type.Array(Type.String({ minLength: 1 }), { default: [], uniqueItems: true, description: 'table names or ids; empty = every table of the base' }),
      access_token_env: Type.String({ minLength: 1, default: 'AIRTABLE_ACCESS_TOKEN', description: 'name of the environment variable holding the personal access token' }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.airtable.com' }),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'bearer', tokenEnv: c.access_token_env, field: 'access_token_env' } }),
  endpoints: [],
  async dynamicEndpoints(ctx, client) {
    const res = await client.get(`/v0/meta/bases/${ctx.config.base_id}/tables`);
    const tables = (getPath(res.body, 'tables') as AirtableTable[] | undefined) ?? [];
    const wanted = ctx.config.table_names;
    return tables
      .filter((t) => wanted.length === 0 || wanted.includes(t.name) || wanted.includes(t.id))
      .map((t) => ({
        name: tableName(t.name),
        description: `Airtable table ${t.name} (${t.id})`,
        path: `/v0/${ctx.config.base_id}/${t.id}`,
        params: { pageSize: 100 },
        dataSelector: 'records',
        paginator: { type: 'cursor' as const, cursor_path: 'offset', cursor_param: 'offset' },
        primaryKey: ['id'],
      }));
  },
  async check(ctx, client) {
    const res = await client.get(`/v0/meta/bases/${ctx.config.base_id}/tables`);
    return `Airtable answered ${res.status}: ${((getPath(res.body, 'tables') as unknown[]) ?? []).length} tables.`;
  },
});
