import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['customers', 'orders', 'products'];

/**
 * Shopify (SPEC: e-commerce platform, no wizard: needs an OAuth grant flow not implemented yet).
 * Settings go in `generic_config`, a free key-value dict that no runtime reads yet. Manifest
 * only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'shopify',
  title: 'Shopify',
  category: 'business',
  authKind: 'oauth2',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
