import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'strapi',
  category: 'saas',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('strapi');
  },
  async discover() {
    throw notImplemented('strapi');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('strapi');
  },
});
