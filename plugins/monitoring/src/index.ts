import { definePlugin } from '@basin/core';
import { monitorsFileSpec } from './config.js';

export * from './config.js';

export default definePlugin({
  name: 'monitoring',
  configFiles: [monitorsFileSpec],
  register() {
    // monitors: issue "Catalog, governance, monitors and the read-only SQL endpoint"
  },
});
