// Build options every package's tsup config spreads in: multi-file dependencies that every server
// start loads (TypeBox ~250 files, yaml ~70) come from one bundled copy each instead of hundreds of
// small modules (Node's ESM loader pays per file: `basin start` spent ~100 ms and ~20 MB on them).
// - the SDK bundles TypeBox into its own output and exports it as '@basin/sdk/typebox' (and /value);
// - core re-exports it as '@basin/core/typebox' and bundles yaml, awilix, fastify's parts and
//   @fastify/http-proxy as CommonJS files (core/tsup.config.ts);
// - core bundles @duckdb/node-api (~180 modules) the same way, loaded when the warehouse opens;
// - every other package's imports of '@sinclair/typebox', 'yaml', '@fastify/http-proxy' and
//   '@duckdb/node-api' are aliased to those at build
//   time, so one copy of each is loaded (one TypeBox FormatRegistry, as before).
// Run from sources (BASIN_DEV=1, tsx, tests) every import still names the real package.
import fs from 'node:fs';
import path from 'node:path';

/**
 * tsup options for the package in the current directory (tsup runs in the package's directory).
 * `bundle`: CommonJS dependencies only this package uses, bundled into its output (one module instead
 * of their many files); a banner gives the output a `require` for the node built-ins they require.
 */
export function vendored({ dir = process.cwd(), bundle = [] } = {}) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  // ASCII output (non-ASCII characters escaped): V8 keeps each module's source text in memory, and one
  // '…' in a file makes all of it a two-byte string, twice the size
  const ascii = (options) => {
    options.charset = 'ascii';
  };
  if (pkg.name === '@basin/sdk') return { noExternal: ['@sinclair/typebox'], esbuildOptions: ascii };
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const alias =
    pkg.name === '@basin/core'
      ? { '@sinclair/typebox': '@basin/sdk/typebox' }
      : deps['@basin/core']
        ? { '@sinclair/typebox': '@basin/core/typebox', yaml: '@basin/core/yaml', '@fastify/http-proxy': '@basin/core/vendor/http-proxy', '@duckdb/node-api': '@basin/core/vendor/duckdb' }
        : deps['@basin/sdk']
          ? { '@sinclair/typebox': '@basin/sdk/typebox' }
          : {};
  return {
    // tsup's own external plugin answers before esbuild applies an alias: let these through to it
    noExternal: [...Object.keys(alias), ...bundle],
    ...(bundle.length ? { banner: { js: "import { createRequire as __basinCreateRequire } from 'node:module'; const require = __basinCreateRequire(import.meta.url);" } } : {}),
    esbuildOptions(options) {
      ascii(options);
      options.alias = { ...options.alias, ...alias };
      // the alias targets are other packages' built files: imported at run time, never bundled
      options.external = [...(options.external ?? []), '@basin/*'];
    },
  };
}
