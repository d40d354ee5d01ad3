import { batchRecords, defineSource, IncrementalCursor, paginate, RestClient, type ReadItem, type ResourceSpec, type SourceContext } from '@basin/sdk';
import { authSpec } from './auth.js';
import { endpointName, paginatorSpec, RestApiConfig, validateRestApiConfig, type EndpointConfig } from './config.js';

export { RestApiConfig, endpointName, validateRestApiConfig } from './config.js';

/** `retries` overrides max_retries (check() answers quickly instead of backing off for a minute). */
function clientFor(ctx: SourceContext<RestApiConfig>, retries = ctx.config.max_retries): RestClient {
  return new RestClient({
    baseUrl: ctx.config.base_url,
    auth: authSpec(ctx.config),
    headers: ctx.config.headers,
    secret: (n) => ctx.secret(n),
    fetch: ctx.fetch,
    signal: ctx.signal,
    log: ctx.log,
    retry: { retries },
  });
}

function primaryKey(e: EndpointConfig): string[] | undefined {
  if (!e.primary_key) return undefined;
  return typeof e.primary_key === 'string' ? [e.primary_key] : e.primary_key;
}

function resourceOf(e: EndpointConfig): ResourceSpec {
  const pk = primaryKey(e);
  return {
    name: endpointName(e),
    primaryKey: pk,
    cursorField: e.cursor_field,
    // without a cursor every sync reads everything, so the table is replaced
    writeDisposition: pk ? 'merge' : e.cursor_field ? 'append' : 'replace',
    description: `GET ${e.path}`,
  };
}

async function* readEndpoint(ctx: SourceContext<RestApiConfig>, client: RestClient, e: EndpointConfig, state: Record<string, unknown> | undefined): AsyncGenerator<ReadItem> {
  const resource = endpointName(e);
  const cursor = e.cursor_field
    ? new IncrementalCursor({ field: e.cursor_field, param: e.cursor_param, initialValue: e.initial_value, endParam: e.end_param, primaryKey: primaryKey(e) }, state, ctx.options)
    : null;
  const pages = paginate(client, e.path, {
    params: { ...e.params, ...cursor?.params() },
    paginator: paginatorSpec(e.paginator ?? ctx.config.paginator),
    dataSelector: e.data_selector ?? ctx.config.data_selector,
    log: ctx.log,
  });
  async function* records() {
    for await (const p of pages) yield cursor ? cursor.filter(p.records) : p.records;
  }
  for await (const batch of batchRecords(records(), ctx.config.batch_size)) yield { kind: 'records', resource, records: batch };
  const next = cursor?.state();
  if (next) yield { kind: 'state', resource, state: { ...next } };
}

/**
 * `rest_api`: any JSON REST API. One resource per endpoint, all pages read with the SDK's
 * paginators, records handed over in batches; incremental per endpoint with cursor_field.
 */
export default defineSource({
  type: 'rest_api',
  title: 'REST API',
  category: 'api',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: RestApiConfig,
  capabilities: { incremental: true, dateRange: true, customQueries: false },
  docs: 'Reads JSON from the endpoints of a REST API (bearer, API key, basic, OAuth2 client credentials or custom-header auth), following its pagination; one table per endpoint.',
  validateConfig: validateRestApiConfig,
  async check(ctx) {
    try {
      const client = clientFor(ctx, Math.min(1, ctx.config.max_retries));
      const e = ctx.config.endpoints[0]!;
      const res = await client.get(e.path, e.params);
      return { ok: true, message: `${new URL(ctx.config.base_url).host} answered ${res.status} for ${e.path}.` };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  },
  async discover(ctx) {
    return ctx.config.endpoints.map(resourceOf);
  },
  async *read(ctx, resources, state) {
    const client = clientFor(ctx);
    const wanted = resources.length ? new Set(resources.map((r) => r.name)) : null;
    for (const e of ctx.config.endpoints) {
      const name = endpointName(e);
      if (wanted && !wanted.has(name)) continue;
      yield* readEndpoint(ctx, client, e, state[name]);
    }
  },
});
