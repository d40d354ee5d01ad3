import { declareSource, Type } from '@basin/sdk';

// The Data API accepts absolute dates and the relative forms today, yesterday and NdaysAgo
const START = '^(\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])|today|yesterday|[0-9]+daysAgo)$';

/** Google Analytics 4 (SPEC: web analytics, OAuth). Manifest only; the runtime comes in a later release. */
export default declareSource({
  type: 'google_analytics',
  title: 'Google Analytics',
  category: 'analytics',
  authKind: 'oauth2',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      // YAML reads an unquoted id as a number; both spellings are the same property
      property_id: Type.Union([Type.String({ pattern: '^[0-9]+$' }), Type.Integer({ minimum: 1 })]),
      credentials_env: Type.String({ minLength: 1, default: 'GOOGLE_ANALYTICS_CREDENTIALS', description: 'name of the environment variable holding the service-account or OAuth JSON' }),
      start_date: Type.Optional(Type.String({ pattern: START })),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: true, performanceMetrics: true },
  resources: [{ name: 'metadata' }, { name: 'reports' }],
});
