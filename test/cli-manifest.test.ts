import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { bundledPluginPackages, commandManifests, loadPlugins, manifestCommands, manifestHelp, runCli } from '@basin/core';
import { makeProject } from '@basin/test';

// `basin --help` and `basin --version` answer from package manifests without importing any plugin
// (core/src/cli-entry.ts): the manifests must say what the code registers.

test('every bundled plugin declares its top-level commands in package.json as its code registers them', async () => {
  const pkgs = bundledPluginPackages();
  const plugins = await loadPlugins(); // the same packages, in the same order
  assert.equal(plugins.length, pkgs.length);
  const manifests = commandManifests(plugins);
  for (const [i, pkg] of pkgs.entries()) {
    assert.deepEqual(pkg.meta.commands, manifests.get(plugins[i]!), `${pkg.name}: basin.commands in package.json differs from the commands its code registers; run: node --conditions=development --import tsx scripts/cli-manifests.mjs`);
  }
});

test('the help from the manifests is the help of the full program', async () => {
  const s = new PassThrough();
  let full = '';
  s.on('data', (c) => (full += String(c)));
  assert.equal(await runCli(['--help'], { stdout: s, stderr: s }), 0);
  const fast = await manifestHelp(process.cwd());
  assert.equal(fast, full);
  assert.match(fast!, /^ {2}sync \[options\] \[sources\.\.\.\] +Load data/m);
});

test('a project that adds plugins gets its help from their code, not the manifests', () => {
  const dir = makeProject();
  assert.ok(manifestCommands(dir));
  fs.appendFileSync(path.join(dir, '.basin', 'project.yml'), '\nplugins:\n  - ./my-plugin\n');
  assert.equal(manifestCommands(dir), null);
});
