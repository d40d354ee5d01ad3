import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['reports', 'visits'];

/**
 * Matomo (SPEC: privacy web analytics, no wizard: token passed as a GET parameter). Settings go in
 * `generic_config`, a free key-value dict that no runtime reads yet. Manifest only; the
 * runtime comes in a later release.
 */
export default declareSource({
  type: 'matomo',
  title: 'Matomo',
  category: 'analytics',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: true, customQueries: true, performanceMetrics: true },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
