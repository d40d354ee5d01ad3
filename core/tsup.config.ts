import { defineConfig } from 'tsup';
export default defineConfig({ entry: ['src/index.ts', 'src/cli-entry.ts'], format: ['esm'], target: 'node20', clean: true, sourcemap: true });
