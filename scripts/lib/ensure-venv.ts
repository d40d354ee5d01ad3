// Creates or updates one companion virtualenv: `node --conditions=development --import tsx
// scripts/lib/ensure-venv.ts <module> <export>` where the export is a core ManagedVenv. Run as a child
// of setup.mjs because workspace packages resolve to their sources only under the development condition.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ManagedVenv } from '@basin/core';

const [modulePath, exportName] = process.argv.slice(2);
if (!modulePath || !exportName) {
  console.error('usage: ensure-venv.ts <module> <export>');
  process.exit(2);
}
const mod = (await import(pathToFileURL(path.resolve(modulePath)).href)) as Record<string, ManagedVenv>;
const venv = mod[exportName];
if (!venv) throw new Error(`${modulePath} has no export ${exportName}`);
const { dir } = venv.locate(undefined);
const tag = `[${venv.spec.tool}-venv]`;
try {
  const { changed } = await venv.ensure(dir, (line) => console.log(`${tag} ${line}`));
  console.log(`[setup] ${venv.spec.tool} virtualenv ${changed ? 'installed' : 'up to date'} at ${dir}`);
} catch (e) {
  console.error(`[setup] ${(e as Error).message}`);
  process.exit(1);
}
