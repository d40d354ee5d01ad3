import { defineSource, notImplemented, Type } from '@basin/sdk';

const RESOURCES = ['messages', 'attachments'];

/**
 * IMAP inbox (SPEC: IMAP inbox). Settings go in `generic_config`, a free key-value dict passed to
 * the ingestion function. Manifest only; the runtime comes in a later release.
 */
export default defineSource({
  type: 'inbox',
  title: 'IMAP inbox',
  category: 'productivity',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
  async check() {
    throw notImplemented('inbox');
  },
  async discover() {
    throw notImplemented('inbox');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('inbox');
  },
});
