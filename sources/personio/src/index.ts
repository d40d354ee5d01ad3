import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['absence_types', 'absences', 'attendances', 'employees'];

/**
 * Personio (SPEC: HR system, no wizard). Settings go in `generic_config`, a free key-value dict
 * that no runtime reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'personio',
  title: 'Personio',
  category: 'business',
  authKind: 'serviceAccount',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
