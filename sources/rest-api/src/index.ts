import { declareRestSource, type RestResource } from '@basin/sdk';
import { authSpec } from './auth.js';
import { endpointName, paginatorSpec, RestApiConfig, validateRestApiConfig, type EndpointConfig } from './config.js';

export { RestApiConfig, endpointName, validateRestApiConfig } from './config.js';

function primaryKey(e: EndpointConfig): string[] | undefined {
  if (!e.primary_key) return undefined;
  return typeof e.primary_key === 'string' ? [e.primary_key] : e.primary_key;
}

/** One configured endpoint as a resource of the declarative runtime (records kept as the API sends them). */
function resourceOf(c: RestApiConfig, e: EndpointConfig): RestResource<RestApiConfig> {
  const pk = primaryKey(e);
  return {
    name: endpointName(e),
    description: `GET ${e.path}`,
    path: e.path,
    params: e.params,
    paginator: paginatorSpec(e.paginator ?? c.paginator),
    dataSelector: e.data_selector ?? c.data_selector,
    primaryKey: pk,
    // without a cursor every sync reads everything, so the table is replaced
    writeDisposition: pk ? 'merge' : e.cursor_field ? 'append' : 'replace',
    incremental: e.cursor_field ? { cursorField: e.cursor_field, param: e.cursor_param, endParam: e.end_param, initialValue: () => e.initial_value } : undefined,
    keepNested: true,
  };
}

/**
 * `rest_api`: any JSON REST API, declared on the SDK's REST runtime like the vendor sources. One
 * resource per endpoint, all pages read with the SDK's paginators, records handed over in
 * batches (nested values kept); incremental per endpoint with cursor_field.
 */
export default declareRestSource({
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
  connection: (c) => ({ baseUrl: c.base_url, auth: authSpec(c), headers: c.headers }),
  retries: (c) => c.max_retries,
  batchSize: (c) => c.batch_size,
  endpoints: [],
  async dynamicEndpoints(ctx) {
    return ctx.config.endpoints.map((e) => resourceOf(ctx.config, e));
  },
  async check(ctx, client) {
    const e = ctx.config.endpoints[0]!;
    const res = await client.get(e.path, e.params);
    return `${new URL(ctx.config.base_url).host} answered ${res.status} for ${e.path}.`;
  },
});
