import { definePlugin } from '@basin/core';
import { piiOverridesFileSpec } from './config.js';

export * from './config.js';

export default definePlugin({
  name: 'governance',
  configFiles: [piiOverridesFileSpec],
  register() {
    // drift, PII, attention: issue "Catalog, governance, monitors and the read-only SQL endpoint"
  },
});
