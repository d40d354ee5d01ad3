import { defineSource, notImplemented, Type } from '@basin/sdk';

const RESOURCES = ['assets', 'views'];

/**
 * Mux (SPEC: video analytics). Settings go in `generic_config`, a free key-value dict passed to the
 * ingestion function. Manifest only; the runtime comes in a later release.
 */
export default defineSource({
  type: 'mux',
  title: 'Mux',
  category: 'analytics',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: true },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
  async check() {
    throw notImplemented('mux');
  },
  async discover() {
    throw notImplemented('mux');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('mux');
  },
});
