import { declareSource, Type } from '@basin/sdk';

/**
 * Airtable (SPEC: table database; tables are discovered from the base). Settings go in
 * `generic_config`, a free key-value dict that no runtime reads yet. Manifest only; the
 * runtime comes in a later release.
 */
export default declareSource({
  type: 'airtable',
  title: 'Airtable',
  category: 'database',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
});
