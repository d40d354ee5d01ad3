#!/usr/bin/env node
// Writes each bundled plugin's `basin.commands` manifest (package.json) from the commands its code
// registers, so `basin --help` lists them without importing any plugin (core/src/cli-entry.ts).
// Run after adding or renaming a top-level command: node --conditions=development --import tsx scripts/cli-manifests.mjs
// (test/cli-manifest.test.ts fails while a manifest and the code disagree.)
import fs from 'node:fs';
import path from 'node:path';
import { bundledPluginPackages, commandManifests, importPackage } from '@basin/core';

const pkgs = bundledPluginPackages();
const plugins = await Promise.all(pkgs.map((p) => importPackage(p)));
const manifests = commandManifests(plugins);
for (const [i, pkg] of pkgs.entries()) {
  const file = path.join(pkg.dir, 'package.json');
  const text = fs.readFileSync(file, 'utf8');
  const json = JSON.parse(text);
  const commands = manifests.get(plugins[i]);
  if (JSON.stringify(json.basin.commands ?? null) === JSON.stringify(commands)) continue;
  json.basin.commands = commands;
  fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`${path.relative(process.cwd(), file)}: ${Object.keys(commands).length} command(s)`);
}
