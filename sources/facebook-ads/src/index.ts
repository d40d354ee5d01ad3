import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'facebook_ads',
  category: 'marketing',
  authKind: 'oauth2',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('facebook_ads');
  },
  async discover() {
    throw notImplemented('facebook_ads');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('facebook_ads');
  },
});
