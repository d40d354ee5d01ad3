import { defineSource, notImplemented, Type } from '@basin/sdk';

/**
 * Notion (SPEC: workspace notes; databases are discovered). Settings go in `generic_config`, a free
 * key-value dict passed to the ingestion function. Manifest only; the runtime comes in a later
 * release.
 */
export default defineSource({
  type: 'notion',
  title: 'Notion',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
  async check() {
    throw notImplemented('notion');
  },
  async discover() {
    throw notImplemented('notion');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('notion');
  },
});
