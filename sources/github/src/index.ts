import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'github',
  category: 'engineering',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('github');
  },
  async discover() {
    throw notImplemented('github');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('github');
  },
});
