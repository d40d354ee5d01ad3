import { defineSource, notImplemented, Type } from '@basin/sdk';

/**
 * Airtable (SPEC: table database; tables are discovered from the base). Settings go in
 * `generic_config`, a free key-value dict passed to the ingestion function. Manifest only; the
 * runtime comes in a later release.
 */
export default defineSource({
  type: 'airtable',
  title: 'Airtable',
  category: 'database',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
  async check() {
    throw notImplemented('airtable');
  },
  async discover() {
    throw notImplemented('airtable');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('airtable');
  },
});
