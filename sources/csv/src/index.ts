import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'csv',
  category: 'files',
  authKind: 'none',
  wizard: false,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('csv');
  },
  async discover() {
    throw notImplemented('csv');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('csv');
  },
});
