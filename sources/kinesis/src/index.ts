import { declareSource, Type } from '@basin/sdk';

/**
 * Kinesis (SPEC: data stream; streams are discovered). Settings go in `generic_config`, a free
 * key-value dict that no runtime reads yet. Manifest only; the runtime comes in a later
 * release.
 */
export default declareSource({
  type: 'kinesis',
  title: 'Kinesis',
  category: 'stream',
  authKind: 'serviceAccount',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
});
