import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'matomo',
  category: 'analytics',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('matomo');
  },
  async discover() {
    throw notImplemented('matomo');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('matomo');
  },
});
