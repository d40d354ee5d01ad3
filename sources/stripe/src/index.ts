import { declareSource, Type } from '@basin/sdk';

const ENDPOINTS = ['customers', 'subscriptions', 'invoices', 'charges', 'payment_intents', 'products', 'prices', 'coupons', 'balance_transactions', 'events', 'payouts', 'refunds'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/** Stripe (SPEC: payments provider). Manifest only; the runtime comes in a later release. */
export default declareSource({
  type: 'stripe',
  title: 'Stripe',
  category: 'business',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      secret_key_env: Type.String({ minLength: 1, default: 'STRIPE_SECRET_KEY', description: 'name of the environment variable holding the secret key' }),
      endpoints: Type.Array(Type.Union(ENDPOINTS.map((e) => Type.Literal(e))), { default: ENDPOINTS, uniqueItems: true }),
      start_date: Type.Optional(Type.String({ pattern: DATE })),
      end_date: Type.Optional(Type.String({ pattern: DATE })),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: ENDPOINTS.map((name) => ({ name, primaryKey: ['id'], cursorField: 'created' })),
  defaultResources: ENDPOINTS,
});
