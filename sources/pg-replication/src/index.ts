import { declareSource, Type } from '@basin/sdk';

/**
 * PostgreSQL replication (SPEC: relational database via logical replication; tables are
 * discovered). Settings go in `generic_config`, a free key-value dict that no runtime reads
 * yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'pg_replication',
  title: 'PostgreSQL replication',
  category: 'database',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
});
