import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['agents', 'companies', 'contacts', 'groups', 'roles', 'tickets'];

/**
 * Freshdesk (SPEC: helpdesk). Settings go in `generic_config`, a free key-value dict that no runtime
 * reads yet. Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'freshdesk',
  title: 'Freshdesk',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
