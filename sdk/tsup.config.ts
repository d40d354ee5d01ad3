import { defineConfig } from 'tsup';
import { vendored } from '../scripts/lib/tsup-vendor.mjs';
export default defineConfig({
  entry: { index: 'src/index.ts', 'testkit/index': 'src/testkit/index.ts', 'vendor/typebox': 'src/vendor/typebox.ts', 'vendor/typebox-value': 'src/vendor/typebox-value.ts' },
  format: ['esm'],
  target: 'node20',
  clean: true,
  sourcemap: true,
  external: ['node:test'],
  ...vendored(),
});
