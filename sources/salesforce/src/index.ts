import { declareSource, Type } from '@basin/sdk';

const DEFAULTS = ['account', 'contact', 'lead', 'opportunity', 'campaign'];
const RESOURCES = [...DEFAULTS, 'task', 'event', 'user', 'user_role', 'product_2'];

/**
 * Salesforce (SPEC: enterprise CRM, service-account auth). The credentials (user name, password,
 * security token) come from .ingest/secrets.toml, so the typed block only picks resources.
 * Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'salesforce',
  title: 'Salesforce',
  category: 'crm',
  authKind: 'serviceAccount',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    { resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }) },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name, primaryKey: ['id'], cursorField: 'system_modstamp' })),
  defaultResources: DEFAULTS,
});
