import { defineSource, notImplemented, Type } from '@basin/sdk';

const RESOURCES = ['agents', 'companies', 'contacts', 'groups', 'roles', 'tickets'];

/**
 * Freshdesk (SPEC: helpdesk). Settings go in `generic_config`, a free key-value dict passed to the
 * ingestion function. Manifest only; the runtime comes in a later release.
 */
export default defineSource({
  type: 'freshdesk',
  title: 'Freshdesk',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
  async check() {
    throw notImplemented('freshdesk');
  },
  async discover() {
    throw notImplemented('freshdesk');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('freshdesk');
  },
});
