import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'freshdesk',
  category: 'support',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('freshdesk');
  },
  async discover() {
    throw notImplemented('freshdesk');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('freshdesk');
  },
});
