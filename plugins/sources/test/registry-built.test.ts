import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { makeProject } from '@basin/test';

// The built server's way (no TypeScript loader): source packages known by their manifests, the ones
// sources.yml names imported by the plugin's `prepare`, another one on its first `get` through require()
// of its ES module, sharing the module instance (and so the one SDK) with an import of the same file.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const built = ['plugins/sources/dist/index.js', 'sources/csv/dist/index.js', 'sources/local-files/dist/index.js', 'sdk/dist/index.js'].every((f) => fs.existsSync(path.join(root, f)));

const script = `
import { pathToFileURL } from 'node:url';
import { packageEntry, discoverWorkspacePackages } from '@basin/core';
import plugin, { loadSourceRegistry } from '@basin/plugin-sources';
const reg = await loadSourceRegistry();
const out = { atImport: reg.loadedTypes(), declared: reg.types().length };
await plugin.prepare(process.argv[1]);
out.afterPrepare = reg.loadedTypes();
const csv = reg.get('csv');
const dir = discoverWorkspacePackages().find((p) => p.name === '@basin/source-csv').dir;
const imported = (await import(pathToFileURL(packageEntry(dir)).href)).default;
out.sameInstance = csv.configSchema === imported.configSchema && csv.package === '@basin/source-csv';
out.all = reg.all().length;
console.log(JSON.stringify(out));
`;

test('built: only the configured source types load at start, another on first use, from the same module instance', { skip: built ? false : 'needs the built packages (npm run build)' }, () => {
  const dir = makeProject({ '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n' });
  const env = { ...process.env, NODE_OPTIONS: '' };
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, dir], { cwd: path.join(root, 'plugins', 'sources'), env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.deepEqual(out.atImport, [], 'nothing imported with the plugin');
  assert.ok(out.declared >= 35);
  assert.deepEqual(out.afterPrepare, ['local_files']);
  assert.equal(out.sameInstance, true);
  assert.equal(out.all, out.declared);
});
