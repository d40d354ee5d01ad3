import { defineSource, notImplemented, Type } from '@basin/sdk';

const RESOURCES = ['projects', 'sections', 'stories', 'tags', 'tasks', 'teams', 'users', 'workspaces'];

/**
 * Asana (SPEC: task tracker, no wizard). Settings go in `generic_config`, a free key-value dict
 * passed to the ingestion function. Manifest only; the runtime comes in a later release.
 */
export default defineSource({
  type: 'asana',
  title: 'Asana',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
  async check() {
    throw notImplemented('asana');
  },
  async discover() {
    throw notImplemented('asana');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('asana');
  },
});
