import { defineConfig } from 'tsup';
import { vendored } from '../scripts/lib/tsup-vendor.mjs';
export default defineConfig([
  // the SDK's own code imports TypeBox as every built package does: '@basin/sdk/typebox' (vendor/typebox.mjs)
  { entry: { index: 'src/index.ts', 'testkit/index': 'src/testkit/index.ts' }, format: ['esm'], target: 'node20', clean: ['!vendor/*.cjs', '!vendor/*.cjs.map'], sourcemap: true, external: ['node:test'], ...vendored() },
  // TypeBox and its Value module as one CommonJS file, minified (V8 keeps a module's source in memory),
  // ASCII only (a one-byte string, read without decoding); vendor/*.mjs hand out its exports
  {
    entry: { 'vendor/typebox': 'src/vendor/typebox-bundle.ts' },
    format: ['cjs'],
    target: 'node20',
    clean: false,
    sourcemap: true,
    minify: true,
    noExternal: ['@sinclair/typebox'],
    esbuildOptions(options) {
      options.charset = 'ascii';
    },
  },
]);
