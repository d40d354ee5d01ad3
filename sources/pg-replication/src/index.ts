import { defineSource, notImplemented, Type } from '@basin/sdk';

/**
 * PostgreSQL replication (SPEC: relational database via logical replication; tables are
 * discovered). Settings go in `generic_config`, a free key-value dict passed to the ingestion
 * function. Manifest only; the runtime comes in a later release.
 */
export default defineSource({
  type: 'pg_replication',
  title: 'PostgreSQL replication',
  category: 'database',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
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
