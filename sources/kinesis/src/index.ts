import { defineSource, notImplemented, Type } from '@basin/sdk';

/**
 * Kinesis (SPEC: data stream; streams are discovered). Settings go in `generic_config`, a free
 * key-value dict passed to the ingestion function. Manifest only; the runtime comes in a later
 * release.
 */
export default defineSource({
  type: 'kinesis',
  title: 'Kinesis',
  category: 'stream',
  authKind: 'serviceAccount',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  async check() {
    throw notImplemented('kinesis');
  },
  async discover() {
    throw notImplemented('kinesis');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('kinesis');
  },
});
