import { declareSource, Type } from '@basin/sdk';

/**
 * MongoDB (SPEC: document database; collections are discovered). Settings go in `generic_config`, a
 * free key-value dict that no runtime reads yet. Manifest only; the runtime comes in a later
 * release.
 */
export default declareSource({
  type: 'mongodb',
  title: 'MongoDB',
  category: 'database',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
});
