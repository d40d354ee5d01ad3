import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['candidates', 'custom_attributes', 'events', 'jobs', 'members', 'recruiters', 'requisitions', 'stages'];

/**
 * Workable (SPEC: recruiting ATS). Settings go in `generic_config`, a free key-value dict that no
 * runtime reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'workable',
  title: 'Workable',
  category: 'business',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
