import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'pg_replication',
  category: 'database',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('pg_replication');
  },
  async discover() {
    throw notImplemented('pg_replication');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('pg_replication');
  },
});
