import { definePlugin } from '@basin/core';
import { AuthSection } from './config.js';

export { AuthSection } from './config.js';

export default definePlugin({
  name: 'auth',
  configSections: [{ section: 'auth', schema: AuthSection }],
  register() {
    // routes, authenticator and CLI commands: issue "Authentication and access control"
  },
});
