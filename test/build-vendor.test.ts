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

test("core/vendor/duckdb.cjs lists every export of @duckdb/node-api (Node's ESM import reads the names there)", () => {
  const shim = fs.readFileSync(path.join(root, 'core', 'vendor', 'duckdb.cjs'), 'utf8');
  const listed = /0 && \(module\.exports = \{([^}]*)\}\)/.exec(shim)?.[1]?.split(',').map((s) => s.trim()).filter(Boolean) ?? [];
  assert.deepEqual([...listed].sort(), Object.keys(require('@duckdb/node-api') as object).filter((n) => n !== 'default').sort());
});

test('the built DuckDB bundle runs a query and its values are the classes the query plugin tests for', { skip: !fs.existsSync(path.join(root, 'core', 'dist', 'vendor', 'duckdb.cjs')) && 'core is not built' }, async () => {
  // through the ESM import the plugins' built code uses (named exports from the shim's list)
  const api = (await import(path.join(root, 'core', 'vendor', 'duckdb.cjs'))) as typeof import('@duckdb/node-api');
  const inst = await api.DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  try {
    const [[n, d]] = (await c.runAndReadAll('SELECT 42::INTEGER, 1.25::DECIMAL(18, 3)')).getRows() as [[number, unknown]];
    assert.equal(n, 42);
    assert.ok(d instanceof api.DuckDBDecimalValue, 'a DECIMAL comes back as the bundle\'s DuckDBDecimalValue');
  } finally {
    c.closeSync();
    inst.closeSync();
  }
});
