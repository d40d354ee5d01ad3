import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['tickets', 'ticket_fields', 'ticket_events', 'ticket_metric_events'];
const DEFAULTS = ['tickets', 'ticket_fields'];

/**
 * Zendesk (SPEC: ticketing). Settings go in `generic_config`, a free key-value dict that no runtime
 * reads yet; `resources` picks what to load. Manifest only; the runtime comes in a later
 * release.
 */
export default declareSource({
  type: 'zendesk',
  title: 'Zendesk',
  category: 'crm',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'generic',
  configSchema: Type.Object(
    { resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }) },
    { additionalProperties: true, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: DEFAULTS,
});
