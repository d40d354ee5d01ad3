import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'stripe',
  category: 'payments',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('stripe');
  },
  async discover() {
    throw notImplemented('stripe');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('stripe');
  },
});
