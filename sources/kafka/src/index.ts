import { defineSource, notImplemented, Type } from '@basin/sdk';

/**
 * Kafka (SPEC: message stream; topics are discovered). Settings go in `generic_config`, a free
 * key-value dict passed to the ingestion function. Manifest only; the runtime comes in a later
 * release.
 */
export default defineSource({
  type: 'kafka',
  title: 'Kafka',
  category: 'stream',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  async check() {
    throw notImplemented('kafka');
  },
  async discover() {
    throw notImplemented('kafka');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('kafka');
  },
});
