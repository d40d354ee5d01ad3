import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'google_sheets',
  category: 'productivity',
  authKind: 'oauth2',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('google_sheets');
  },
  async discover() {
    throw notImplemented('google_sheets');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('google_sheets');
  },
});
