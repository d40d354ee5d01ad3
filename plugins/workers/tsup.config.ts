import { defineConfig } from 'tsup';
export default defineConfig({ entry: ['src/index.ts', 'src/contract.ts'], format: ['esm'], target: 'node20', clean: true, sourcemap: true });
