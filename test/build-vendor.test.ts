import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// The built packages load TypeBox, yaml and fastify's parts from one bundled copy each
// (scripts/lib/tsup-vendor.mjs, core/tsup.config.ts). A package built without the shared options would
// load a second TypeBox (its own FormatRegistry: core's string formats unknown to it).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

test('every package build spreads the shared vendor options', () => {
  const configs = ['core', 'sdk', 'test', ...['plugins', 'sources'].flatMap((d) => fs.readdirSync(path.join(root, d)).map((p) => `${d}/${p}`))]
    .map((dir) => path.join(root, dir, 'tsup.config.ts'))
    .filter((f) => fs.existsSync(f));
  assert.ok(configs.length > 50, 'the tsup configs were found');
  const missing = configs.filter((f) => !/\bvendored\(/.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
  assert.deepEqual(missing, [], 'these tsup configs do not spread ...vendored() (scripts/lib/tsup-vendor.mjs)');
});

test("core/vendor/yaml.cjs lists every export of yaml (Node's ESM import reads the names there)", () => {
  const shim = fs.readFileSync(path.join(root, 'core', 'vendor', 'yaml.cjs'), 'utf8');
  const listed = /0 && \(module\.exports = \{([^}]*)\}\)/.exec(shim)?.[1]?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
  assert.deepEqual([...listed].sort(), Object.keys(require('yaml') as object).sort());
});
