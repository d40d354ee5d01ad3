import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'sql_database',
  category: 'database',
  authKind: 'basic',
  wizard: false,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('sql_database');
  },
  async discover() {
    throw notImplemented('sql_database');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('sql_database');
  },
});
