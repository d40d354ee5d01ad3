import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['projects', 'sections', 'stories', 'tags', 'tasks', 'teams', 'users', 'workspaces'];

/**
 * Asana (SPEC: task tracker, no wizard). Settings go in `generic_config`, a free key-value dict
 * that no runtime reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'asana',
  title: 'Asana',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
