// The built install (no TypeScript loader) loads its plugins from runtime/dist/plugins.cjs: the same
// plugins with the same definitions as their ES modules, one instance of each contract, and every path
// a plugin computes from its own module (UI pages) still pointing into its dist/ folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { makeProject } from '@basin/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifestFile = path.join(root, 'runtime', 'dist', 'plugins.json');
const built = fs.existsSync(path.join(root, 'core', 'dist', 'index.js')) && fs.existsSync(manifestFile);
const skip = built ? false : 'needs the built packages (npm run build)';

// what each plugin declares, the contract identity, and the app's UI page files
const script = `
import fs from 'node:fs';
import { createApp, loadPlugins, prebuiltStatus } from '@basin/core';
const plugins = await loadPlugins();
const syncContract = await import('@basin/plugin-sync/contract');
const sync = plugins.find((p) => p.name === 'sync');
const summary = plugins.map((p) => ({
  name: p.name,
  permissions: (p.permissions ?? []).map((x) => x.name).sort(),
  sections: (p.configSections ?? []).map((s) => s.section),
  files: (p.configFiles ?? []).map((f) => f.id),
  dependsOn: p.dependsOn ?? [],
  optionalDependsOn: p.optionalDependsOn ?? [],
  parts: ['register', 'commands', 'prepare', 'doctor'].filter((k) => typeof p[k] === 'function'),
})).sort((a, b) => (a.name < b.name ? -1 : 1));
const app = await createApp({ projectDir: process.argv[1] });
const pages = app.pages.map((p) => ({ path: p.path, file: p.file, exists: fs.existsSync(p.file) }));
await app.close();
console.log(JSON.stringify({ status: prebuiltStatus(), summary, sameContract: sync.permissions.includes(syncContract.syncPermissions.sync), pages }));
process.exit(0);
`;

function run(env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, makeProject()], { cwd: path.join(root, 'core'), env: { ...process.env, NODE_OPTIONS: '', ...env }, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    status: string;
    summary: Array<{ name: string }>;
    sameContract: boolean;
    pages: Array<{ path: string; file: string; exists: boolean }>;
  };
}

test('the bundle holds every plugin of plugins/ but those that cannot be CommonJS, and no absolute path', { skip }, () => {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { packages: Record<string, string>; left_as_es_modules: Array<{ name: string; reason: string }> };
  const names = fs
    .readdirSync(path.join(root, 'plugins'))
    .map((d) => JSON.parse(fs.readFileSync(path.join(root, 'plugins', d, 'package.json'), 'utf8')).name as string)
    .sort();
  const left = manifest.left_as_es_modules.map((l) => l.name);
  assert.deepEqual([...Object.keys(manifest.packages), ...left].sort(), names);
  // plugins/sources awaits its source registry at the top level
  assert.deepEqual(manifest.left_as_es_modules, [{ name: '@basin/plugin-sources', reason: 'Top-level await is currently not supported with the "cjs" output format' }]);
  const code = fs.readFileSync(path.join(root, 'runtime', 'dist', 'plugins.cjs'));
  assert.ok(!code.includes(root), 'no path of this checkout in the bundle');
  assert.ok(code.every((b) => b < 0x80), 'ASCII only');
});

test('built, the plugins come from the bundle: the same definitions as the ES modules, one contract instance, UI pages in dist/', { skip }, () => {
  const bundled = run({});
  const esm = run({ BASIN_PREBUILT: '0' });
  assert.match(bundled.status, /^prebuilt plugins from .*runtime\/dist\/plugins\.cjs$/);
  assert.equal(esm.status, 'plugins as ES modules (BASIN_PREBUILT=0)');
  assert.ok(bundled.summary.length >= 20, `${bundled.summary.length} plugins`);
  assert.deepEqual(bundled.summary, esm.summary);
  // the sync plugin's permissions are the objects its contract exports to the other plugins
  assert.equal(bundled.sameContract, true);
  assert.equal(esm.sameContract, true);
  assert.ok(bundled.pages.length > 5, `${bundled.pages.length} pages`);
  assert.deepEqual(bundled.pages, esm.pages);
  for (const p of bundled.pages) {
    assert.ok(p.exists, `${p.path}: ${p.file}`);
    assert.match(p.file, /[\\/]plugins[\\/][^\\/]+[\\/](dist|ui)[\\/]/);
  }
});
