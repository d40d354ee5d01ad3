import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['activities', 'deals', 'organizations', 'persons', 'pipelines', 'products', 'stages', 'users'];

/**
 * Pipedrive (SPEC: deals CRM). Settings go in `generic_config`, a free key-value dict that no runtime
 * reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'pipedrive',
  title: 'Pipedrive',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
