import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'slack',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('slack');
  },
  async discover() {
    throw notImplemented('slack');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('slack');
  },
});
