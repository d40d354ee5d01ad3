import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'mux',
  category: 'analytics',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('mux');
  },
  async discover() {
    throw notImplemented('mux');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('mux');
  },
});
