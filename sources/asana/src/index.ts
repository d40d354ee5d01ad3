import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'asana',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('asana');
  },
  async discover() {
    throw notImplemented('asana');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('asana');
  },
});
