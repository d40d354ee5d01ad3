import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'local_files',
  category: 'files',
  authKind: 'none',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('local_files');
  },
  async discover() {
    throw notImplemented('local_files');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('local_files');
  },
});
