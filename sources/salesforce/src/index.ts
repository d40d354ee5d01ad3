import { declareRestSource, getPath, Type, type ResourceRun } from '@basin/sdk';

const DEFAULTS = ['account', 'contact', 'lead', 'opportunity', 'campaign'];
const RESOURCES = [...DEFAULTS, 'task', 'event', 'user', 'user_role', 'product_2'];
const SOBJECT: Record<string, string> = {
  account: 'Account', contact: 'Contact', lead: 'Lead', opportunity: 'Opportunity', campaign: 'Campaign',
  task: 'Task', event: 'Event', user: 'User', user_role: 'UserRole', product_2: 'Product2',
};
/** field types SOQL cannot select in bulk or that hold files */
const SKIP_TYPES = new Set(['base64']);

type Config = { api_version: string };

/** SOQL datetime literals are unquoted ISO 8601 in UTC. */
const soqlDateTime = (v: string | number) => new Date(Date.parse(String(v).replace(/\+0000$/, 'Z'))).toISOString().replace('.000Z', 'Z');

/**
 * One sObject by SOQL: the fields come from `describe`, the query orders by `SystemModstamp`
 * (filtered from the cursor on later syncs) and is followed through `nextRecordsUrl` until `done`.
 */
async function* soql(run: ResourceRun<Config>): AsyncGenerator<Record<string, unknown>[]> {
  const object = SOBJECT[run.resource.name]!;
  const base = `/services/data/${run.config.api_version}`;
  const describe = (await run.fetchJson(`${base}/sobjects/${object}/describe`)) as { fields?: Array<{ name: string; type: string }> };
  const fields = (describe.fields ?? []).filter((f) => !SKIP_TYPES.has(f.type)).map((f) => f.name);
  if (!fields.includes('Id')) fields.unshift('Id');
  const start = run.cursor?.start;
  const where = start === undefined ? '' : ` WHERE SystemModstamp >= ${soqlDateTime(start)}`;
  const q = `SELECT ${fields.join(', ')} FROM ${object}${where} ORDER BY SystemModstamp ASC`;
  let body = (await run.fetchJson(`${base}/query`, { params: { q } })) as Record<string, unknown>;
  for (;;) {
    const records = (getPath(body, 'records') as Record<string, unknown>[] | undefined) ?? [];
    if (records.length) yield records.map(({ attributes: _a, ...r }) => r);
    const next = getPath(body, 'nextRecordsUrl');
    if (getPath(body, 'done') === true || typeof next !== 'string' || !next) return;
    body = (await run.fetchJson(next)) as Record<string, unknown>;
  }
}

/**
 * Salesforce REST API as a connected app with the OAuth 2.0 client-credentials flow (a service
 * account): the listed sObjects by SOQL with every field from `describe`, incremental by
 * `SystemModstamp`, paged through `nextRecordsUrl`.
 */
export default declareRestSource({
  type: 'salesforce',
  title: 'Salesforce',
  category: 'crm',
  authKind: 'serviceAccount',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
      instance_url: Type.String({ pattern: '^https?://', description: 'your My Domain URL (https://acme.my.salesforce.com)' }),
      client_id_env: Type.String({ minLength: 1, default: 'SALESFORCE_CLIENT_ID', description: "name of the environment variable holding the connected app's consumer key" }),
      client_secret_env: Type.String({ minLength: 1, default: 'SALESFORCE_CLIENT_SECRET', description: "name of the environment variable holding the connected app's consumer secret" }),
      api_version: Type.String({ pattern: '^v\\d+\\.\\d$', default: 'v61.0' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: DEFAULTS,
  connection: (c) => ({
    baseUrl: c.instance_url,
    auth: { kind: 'oauth2_client_credentials', tokenUrl: `${c.instance_url.replace(/\/$/, '')}/services/oauth2/token`, clientIdEnv: c.client_id_env, clientSecretEnv: c.client_secret_env },
  }),
  selected: (c) => c.resources,
  endpoints: RESOURCES.map((name) => ({ name, primaryKey: ['Id'], incremental: { cursorField: 'SystemModstamp' }, read: soql })),
  async check(ctx, client) {
    const res = await client.get(`/services/data/${ctx.config.api_version}/limits`);
    return `Salesforce answered ${res.status}.`;
  },
});
