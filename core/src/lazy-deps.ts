import { createRequire } from 'node:module';

// yaml and awilix (with its fast-glob) are required, synchronously, on first use: a CLI command that only
// talks to a running server never parses YAML nor builds a container, and skips their ~80 ms of loading.
// Both resolve to the same CommonJS build an ESM `import` of them gets in Node, so there is one copy.
const require = createRequire(import.meta.url);

export const yaml = (): typeof import('yaml') => require('yaml');
export const awilix = (): typeof import('awilix') => require('awilix');
