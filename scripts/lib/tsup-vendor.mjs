// Build options every package's tsup config spreads in: multi-file dependencies that every server
// start loads (TypeBox ~250 files, yaml ~70) come from one bundled copy each instead of hundreds of
// small modules (Node's ESM loader pays per file: `basin start` spent ~100 ms and ~20 MB on them).
// - the SDK bundles TypeBox (with its Value module) into one CommonJS file, loaded with a code cache,
//   and exports it as '@basin/sdk/typebox' (and /value) through sdk/vendor/*.mjs; its own code too;
// - core re-exports it as '@basin/core/typebox' and bundles yaml, awilix, dotenv, fastify's parts and
//   @fastify/http-proxy as CommonJS files (core/tsup.config.ts);
// - core bundles @duckdb/node-api (~180 modules) the same way, loaded when the warehouse opens;
// - every other package's imports of '@sinclair/typebox', 'yaml', 'dotenv', '@fastify/http-proxy'
//   and '@duckdb/node-api' are aliased to those at build
//   time, so one copy of each is loaded (one TypeBox FormatRegistry, as before).
// Run from sources (BASIN_DEV=1, tsx, tests) every import still names the real package.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Output text within Latin-1: V8 stores a module's source as one byte per character only if every
 * character is below U+0100, else two bytes for all of it. esbuild's `charset: 'ascii'` escapes strings
 * and identifiers but leaves comments and some regular expressions as written (luxon's doc comments made
 * the scheduler's 456 KB module a 0.9 MB string, the PII patterns did the same to governance). Each UTF-16
 * unit above U+00FF becomes a \uXXXX escape, which means the same character in a regular expression
 * (with or without the u flag) and is plain text in a comment. Not for a tagged template's raw text
 * (none in our outputs: esbuild escapes template literals itself). Source maps are not adjusted: only the
 * columns after such a character on its line shift.
 */
export const latin1Output = {
  name: 'basin-latin1-output',
  renderChunk(code, info) {
    if (info.type !== 'chunk' || !/[^\x00-\xff]/.test(code)) return undefined;
    return { code: code.replace(/[^\x00-\xff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) };
  },
};

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
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const alias =
    pkg.name === '@basin/core' || pkg.name === '@basin/sdk'
      ? { '@sinclair/typebox': '@basin/sdk/typebox' }
      : deps['@basin/core']
        ? { '@sinclair/typebox': '@basin/core/typebox', yaml: '@basin/core/yaml', dotenv: '@basin/core/dotenv', '@fastify/http-proxy': '@basin/core/vendor/http-proxy', '@duckdb/node-api': '@basin/core/vendor/duckdb' }
        : deps['@basin/sdk']
          ? { '@sinclair/typebox': '@basin/sdk/typebox' }
          : {};
  return {
    // tsup's own external plugin answers before esbuild applies an alias: let these through to it
    noExternal: [...Object.keys(alias), ...bundle],
    plugins: [latin1Output],
    ...(bundle.length ? { banner: { js: "import { createRequire as __basinCreateRequire } from 'node:module'; const require = __basinCreateRequire(import.meta.url);" } } : {}),
    esbuildOptions(options) {
      ascii(options);
      options.alias = { ...options.alias, ...alias };
      // the alias targets are other packages' built files: imported at run time, never bundled
      options.external = [...(options.external ?? []), '@basin/*'];
    },
  };
}
