import { asValue, definePlugin } from '@basin/core';
import { ingestConfigFileSpec, secretsFileSpec, sourcesFileSpec } from './config.js';
import { loadSourceRegistry } from './registry.js';

export * from './config.js';
export * from './registry.js';

// Source packages are loaded before config validation, since each one owns its block's schema.
const registry = await loadSourceRegistry();

export default definePlugin({
  name: 'sources',
  configFiles: [sourcesFileSpec(registry), secretsFileSpec, ingestConfigFileSpec],
  register(ctx) {
    ctx.provide('sourceRegistry', asValue(registry));
  },
});
