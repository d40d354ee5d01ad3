#!/usr/bin/env -S node --max-semi-space-size=2
// (A long-running, I/O-bound server does not need V8's default 16 MB young generation: 2 MB keeps
// idle memory about 25 MB lower (4-6 MB less than 4 MB did) for no measurable cost in extra
// scavenges, also on an allocation-heavy JSON-to-rows loop (docs/performance.md). V8 reads it only at
// start. --optimize-for-size would save ~9 MB more but slowed that loop by ~10%.)
// The `basin` command. Runs the built packages (npm run build); BASIN_DEV=1 runs the TypeScript sources.
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';
import { createRequire } from 'node:module';

// required, not imported: an ESM import of node:fs loads fs's streams (see core/src/cli-entry.ts)
const fs = createRequire(import.meta.url)('node:fs');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!fs.existsSync(path.join(root, 'core', 'dist', 'index.js')) && !process.env.BASIN_DEV) {
  console.error('basin: the packages are not built yet; run "npm run build" in ' + root + ' (or set BASIN_DEV=1).');
  process.exit(1);
}
const entry = (file) => pathToFileURL(path.join(root, 'core', process.env.BASIN_DEV ? `src/${file}.ts` : `dist/${file}.js`)).href;
// a small first module: --version and --help answer from package manifests; any other command imports
// the full CLI (core and the plugins) only then
const { main } = await import(entry('cli-entry'));
const argv = process.argv.slice(2);
const code = await main(argv, async () => (await import(entry('index'))).runCli);
if (code !== 0 || !argv.includes('start')) process.exitCode = code;
