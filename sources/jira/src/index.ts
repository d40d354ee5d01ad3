import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['issues', 'projects', 'users', 'workflows'];

/**
 * Jira (SPEC: issue tracker, no wizard). Settings go in `generic_config`, a free key-value dict
 * that no runtime reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'jira',
  title: 'Jira',
  category: 'productivity',
  authKind: 'basic',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
