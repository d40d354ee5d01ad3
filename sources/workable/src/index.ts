import { defineSource, notImplemented, Type } from '@basin/sdk';

const RESOURCES = ['candidates', 'custom_attributes', 'events', 'jobs', 'members', 'recruiters', 'requisitions', 'stages'];

/**
 * Workable (SPEC: recruiting ATS). Settings go in `generic_config`, a free key-value dict passed to
 * the ingestion function. Manifest only; the runtime comes in a later release.
 */
export default defineSource({
  type: 'workable',
  title: 'Workable',
  category: 'business',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
  async check() {
    throw notImplemented('workable');
  },
  async discover() {
    throw notImplemented('workable');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('workable');
  },
});
