import { defineSource, notImplemented, Type } from '@basin/sdk';

// Manifest placeholder: schema, runtime and resources come with the ingestion issue.
export default defineSource({
  type: 'salesforce',
  category: 'crm',
  authKind: 'serviceAccount',
  wizard: true,
  configKey: 'typed',
  implemented: false,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    throw notImplemented('salesforce');
  },
  async discover() {
    throw notImplemented('salesforce');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('salesforce');
  },
});
