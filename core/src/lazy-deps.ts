import { createRequire } from 'node:module';

// yaml and awilix (with its fast-glob) are required, synchronously, on first use: a CLI command that only
// talks to a running server never parses YAML nor builds a container, and skips their loading; so are
// better-sqlite3 and smol-toml below.
// Built, core requires its bundled copies (dist/vendor/*.cjs, one file each instead of ~70 and ~80:
// see src/vendor/); the plugins' `import ... from 'yaml'` is aliased to the same file at build time, so
// there is one copy. Run from sources (tsx), both are the packages themselves.
const require = createRequire(import.meta.url);
const built = !import.meta.url.endsWith('.ts');
// (built: through core/vendor/load-bundle.cjs, which keeps a V8 code cache of each bundle)
const load = (name: 'yaml' | 'awilix' | 'dotenv') => (built ? require('../vendor/load-bundle.cjs').loadBundle(require.resolve(`./vendor/${name}.cjs`)) : require(name));

export const yaml = (): typeof import('yaml') => load('yaml');
export const awilix = (): typeof import('awilix') => load('awilix');
// dotenv's parser likewise (src/vendor/dotenv.ts): an ES import of the package cost 7-9 ms of every start
export const dotenv = (): Pick<typeof import('dotenv'), 'parse'> => load('dotenv');
// better-sqlite3's native addon and smol-toml (TOML config files only) are not bundled: required on first use
export const betterSqlite3 = (): typeof import('better-sqlite3') => require('better-sqlite3');
export const smolToml = (): typeof import('smol-toml') => require('smol-toml');
