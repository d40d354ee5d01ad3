import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'filesystem',
  category: 'files',
  authKind: 'none',
  wizard: false,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('filesystem');
  },
  async discover() {
    throw notImplemented('filesystem');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('filesystem');
  },
});
