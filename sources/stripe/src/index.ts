import { declareRestSource, getPath, Type, type Paginator } from '@basin/sdk';

const ENDPOINTS = ['customers', 'subscriptions', 'invoices', 'charges', 'payment_intents', 'products', 'prices', 'coupons', 'balance_transactions', 'events', 'payouts', 'refunds'];
const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const PAGE_SIZE = 100;

/** Stripe's list pagination: `has_more`, then `starting_after` = the last object's id. */
function startingAfter(): Paginator {
  return {
    first: (req) => ({ url: req.url, params: { ...req.params, limit: PAGE_SIZE } }),
    next(res, records, req) {
      const last = (records.at(-1) as { id?: unknown } | undefined)?.id;
      if (getPath(res.body, 'has_more') !== true || typeof last !== 'string') return null;
      return { url: req.url, params: { ...req.params, starting_after: last } };
    },
  };
}

/** Stripe filters on `created` in unix seconds; start and end dates are YYYY-MM-DD. */
const unixSeconds = (v: string | number) => (typeof v === 'number' ? v : Math.floor(Date.parse(v) / 1000));

/**
 * Stripe: the list endpoints of the v1 API, newest first, incremental by `created` (a second sync
 * sends `created[gte]` with the last value seen). Secret key as a bearer token.
 */
export default declareRestSource({
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
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.stripe.com', description: 'API root (a proxy, or a test server)' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  defaultResources: ENDPOINTS,
  docs: 'Stripe list endpoints (customers, invoices, charges...), incremental by created.',
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'bearer', tokenEnv: c.secret_key_env, field: 'secret_key_env' } }),
  selected: (c) => c.endpoints,
  paginator: startingAfter,
  dataSelector: 'data',
  endpoints: ENDPOINTS.map((name) => ({
    name,
    path: `/v1/${name}`,
    primaryKey: ['id'],
    incremental: {
      cursorField: 'created',
      param: 'created[gte]',
      endParam: 'created[lt]',
      format: unixSeconds,
      initialValue: (c: { start_date?: string }) => c.start_date,
      endValue: (c: { end_date?: string }) => c.end_date,
    },
  })),
});
