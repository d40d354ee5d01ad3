import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'scrapy',
  category: 'custom',
  authKind: 'none',
  wizard: false,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('scrapy');
  },
  async discover() {
    throw notImplemented('scrapy');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('scrapy');
  },
});
