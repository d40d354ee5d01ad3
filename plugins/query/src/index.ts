import { definePlugin } from '@basin/core';
import { ApiSection } from './config.js';

export { ApiSection } from './config.js';

export default definePlugin({
  name: 'query',
  configSections: [{ section: 'api', schema: ApiSection }],
  register() {
    // POST /api/query: issue "Catalog, governance, monitors and the read-only SQL endpoint"
  },
});
