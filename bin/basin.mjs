#!/usr/bin/env node
// (No V8 flag here: any flag that V8 counts in its flag hash, such as --max-semi-space-size, makes Node
// refuse the code cache of its own built-in modules, which it then compiles from source: ~35 ms on a
// trivial script here, 40-50 ms on `basin start`. The 2 MB young generation this line used to ask for
// saved ~3 MB of idle RSS once the plugins load lazily (docs/performance.md).)
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
