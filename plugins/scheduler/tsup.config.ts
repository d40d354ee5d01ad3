import { defineConfig } from 'tsup';
import { vendored } from '../../scripts/lib/tsup-vendor.mjs';
// cron-parser (with luxon) and toad-scheduler are this plugin's alone: bundled (scripts/lib/tsup-vendor.mjs)
export default defineConfig({ entry: ['src/index.ts', 'src/contract.ts'], format: ['esm'], target: 'node20', clean: true, sourcemap: true, ...vendored({ bundle: ['cron-parser', 'luxon', 'toad-scheduler'] }) });
