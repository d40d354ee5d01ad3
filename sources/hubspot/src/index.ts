import { declareSource, Type } from '@basin/sdk';

const DEFAULTS = ['contacts', 'companies', 'deals', 'tickets'];
const RESOURCES = [...DEFAULTS, 'products', 'quotes', 'owners', 'properties', 'pipelines_deal', 'pipelines_ticket'];

/** HubSpot (SPEC: CRM with contacts/companies/deals). Manifest only; the runtime comes in a later release. */
export default declareSource({
  type: 'hubspot',
  title: 'HubSpot',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      api_key_env: Type.String({ minLength: 1, default: 'HUBSPOT_API_KEY', description: 'name of the environment variable holding the private-app token' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name, primaryKey: ['id'] })),
  defaultResources: DEFAULTS,
});
