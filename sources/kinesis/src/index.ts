import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'kinesis',
  category: 'stream',
  authKind: 'serviceAccount',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('kinesis');
  },
  async discover() {
    throw notImplemented('kinesis');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('kinesis');
  },
});
