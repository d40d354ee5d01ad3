import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'ingest_native',
  category: 'custom',
  authKind: 'none',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('ingest_native');
  },
  async discover() {
    throw notImplemented('ingest_native');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('ingest_native');
  },
});
