import { defineConfig } from 'tsup';
export default defineConfig({ entry: { index: 'src/index.ts', 'testkit/index': 'src/testkit/index.ts' }, format: ['esm'], target: 'node20', clean: true, sourcemap: true, external: ['node:test'] });
