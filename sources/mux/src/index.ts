import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['assets', 'views'];

/**
 * Mux (SPEC: video analytics). Settings go in `generic_config`, a free key-value dict that no runtime
 * reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'mux',
  title: 'Mux',
  category: 'analytics',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: true },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
