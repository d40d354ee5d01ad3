import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['messages', 'attachments'];

/**
 * IMAP inbox (SPEC: IMAP inbox). Settings go in `generic_config`, a free key-value dict that no
 * runtime reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'inbox',
  title: 'IMAP inbox',
  category: 'productivity',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
