import { defineConfig } from 'tsup';
import { vendored } from '../../scripts/lib/tsup-vendor.mjs';
export default defineConfig({ entry: ['src/index.ts'], format: ['esm'], target: 'node20', clean: true, sourcemap: true, ...vendored() });
