import { declareSource, Type } from '@basin/sdk';

/**
 * Strapi (SPEC: headless CMS, no wizard; content types are discovered). Settings go in
 * `generic_config`, a free key-value dict that no runtime reads yet. Manifest only; the
 * runtime comes in a later release.
 */
export default declareSource({
  type: 'strapi',
  title: 'Strapi',
  category: 'business',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
});
