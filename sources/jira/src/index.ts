import { defineSource, notImplemented, Type } from '@basin/sdk';

const RESOURCES = ['issues', 'projects', 'users', 'workflows'];

/**
 * Jira (SPEC: issue tracker, no wizard). Settings go in `generic_config`, a free key-value dict
 * passed to the ingestion function. Manifest only; the runtime comes in a later release.
 */
export default defineSource({
  type: 'jira',
  title: 'Jira',
  category: 'productivity',
  authKind: 'basic',
  wizard: false,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
  async check() {
    throw notImplemented('jira');
  },
  async discover() {
    throw notImplemented('jira');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('jira');
  },
});
