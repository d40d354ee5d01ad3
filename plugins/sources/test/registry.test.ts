import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discoverWorkspacePackages, importPackage } from '@basin/core';
import type { SourceDefinition } from '@basin/sdk';
import { SourceRegistry, loadSourceRegistry } from '../src/registry.js';

// A built server knows the workspace's source types from their manifests and imports a package when its
// type is first asked for; these check the manifests it relies on and the registry's first-use loading.
const workspace = () => discoverWorkspacePackages().filter((p) => p.kind === 'source');

test("every source package's manifest names the type its definition has", async () => {
  const pkgs = workspace();
  assert.ok(pkgs.length >= 35, `${pkgs.length} source packages`);
  const wrong: string[] = [];
  for (const p of pkgs) {
    const def = await importPackage<SourceDefinition>(p);
    if (p.meta.type !== def.type) wrong.push(`${p.name}: package.json basin.type ${String(p.meta.type)}, defineSource type ${def.type}`);
  }
  assert.deepEqual(wrong, []);
});

test('a declared package is imported on first use: load ahead, get, all; unknown types stay unknown', async () => {
  const reg = new SourceRegistry();
  const pkgs = workspace();
  for (const p of pkgs) reg.declare(p);
  assert.deepEqual(reg.types(), pkgs.map((p) => String(p.meta.type)).sort(), 'types from the manifests');
  assert.deepEqual(reg.loadedTypes(), [], 'nothing imported by declaring');

  await reg.load(['local_files', 'not_a_type']);
  assert.deepEqual(reg.loadedTypes(), ['local_files']);
  assert.equal(reg.get('local_files')!.package, '@basin/source-local-files');

  // a synchronous caller (sources.yml validated after an edit) gets a type nobody loaded yet
  const csv = reg.get('csv');
  assert.equal(csv?.type, 'csv');
  assert.equal(csv?.package, '@basin/source-csv');
  assert.equal(reg.get('not_a_type'), undefined);

  const all = reg.all();
  assert.equal(all.length, pkgs.length);
  assert.deepEqual(all.map((d) => d.type), reg.types());
  assert.equal(reg.get('csv'), csv, 'loaded once');
});

test('the first package of a type wins; a manifest that disagrees with its definition is refused', async () => {
  const [local] = workspace().filter((p) => p.meta.type === 'local_files');
  const reg = new SourceRegistry();
  reg.declare(local!);
  reg.declare({ ...local!, name: '@someone/other-local-files' });
  assert.equal(reg.get('local_files')!.package, '@basin/source-local-files');

  const liar = new SourceRegistry();
  liar.declare({ ...local!, meta: { ...local!.meta, type: 'csv' } });
  assert.throws(() => liar.get('csv'), /declares type "csv" in package.json but defines "local_files"/);
});

test('under a TypeScript loader (tests) the workspace registry imports every package at start', async () => {
  const reg = await loadSourceRegistry();
  assert.deepEqual(reg.loadedTypes(), reg.types());
});
