import { declareSource, Type } from '@basin/sdk';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const DEFAULTS = ['campaigns', 'ads', 'ad_sets', 'insights'];
const RESOURCES = [...DEFAULTS, 'ad_creatives', 'leads'];

/** Facebook Ads (SPEC: social ads, OAuth). Manifest only; the runtime comes in a later release. */
export default declareSource({
  type: 'facebook_ads',
  title: 'Facebook Ads',
  category: 'marketing',
  authKind: 'oauth2',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      account_id: Type.String({ pattern: '^act_[0-9]+$', description: 'ad account id with its act_ prefix, e.g. act_123456789' }),
      access_token_env: Type.String({ minLength: 1, default: 'FACEBOOK_ACCESS_TOKEN', description: 'name of the environment variable holding the long-lived access token' }),
      initial_load_past_days: Type.Integer({ minimum: 1, default: 30 }),
      start_date: Type.Optional(Type.String({ pattern: DATE })),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: true },
  resources: RESOURCES.map((name) => ({ name, primaryKey: ['id'] })),
  defaultResources: DEFAULTS,
});
