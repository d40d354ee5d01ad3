// The built SDK hands out TypeBox from one CommonJS bundle (dist/vendor/typebox.cjs) through two ES
// modules that list its export names (vendor/typebox.mjs, vendor/typebox-value.mjs): the lists must be
// TypeBox's whole API, and every built import (the SDK's own code, core's re-export) must reach the one copy.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const sdk = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(sdk, '..');
const require = createRequire(import.meta.url);
const bundle = path.join(sdk, 'dist', 'vendor', 'typebox.cjs');
const built = fs.existsSync(bundle) && fs.existsSync(path.join(root, 'core', 'dist', 'index.js')) ? false : 'needs the built packages (npm run build)';

/** the names a facade lists in its `export const { ... } = bundle` */
function listed(file: string): string[] {
  const text = fs.readFileSync(path.join(sdk, 'vendor', file), 'utf8');
  const body = /export const \{([^}]*)\} = bundle;/.exec(text)?.[1] ?? '';
  return body.split(',').map((s) => s.trim()).filter(Boolean).sort();
}

const apiOf = (m: object) => Object.keys(m).filter((n) => n !== 'default').sort();

test("the facades list exactly TypeBox's exports and its Value module's", () => {
  assert.deepEqual(listed('typebox.mjs'), apiOf(require('@sinclair/typebox') as object));
  assert.deepEqual(listed('typebox-value.mjs'), apiOf(require('@sinclair/typebox/value') as object));
});

test('built: the SDK, its facades and core all reach one TypeBox, loaded from the bundle', { skip: built }, () => {
  // in a process of its own, without the test runner's source conditions: the built files as `basin` runs them
  const url = (...p: string[]) => JSON.stringify(pathToFileURL(path.join(...p)).href);
  const script = `
    const tb = await import('@basin/sdk/typebox');
    const value = await import('@basin/sdk/typebox/value');
    const core = await import('@basin/core/typebox');
    const sdkIndex = await import(${url(sdk, 'dist', 'index.js')});
    const { createRequire } = await import('node:module');
    const require = createRequire(${url(sdk, 'package.json')});
    const cjs = require(${JSON.stringify(bundle)});
    const files = Object.keys(require.cache);
    const schema = tb.Type.Object({ id: tb.Type.Integer(), at: tb.Type.String({ format: 'made-up-format' }) });
    tb.FormatRegistry.Set('made-up-format', (s) => s.startsWith('ok'));
    console.log(JSON.stringify({
      typeFromBundle: tb.Type === cjs.Type,
      valueFromBundle: value.Value === cjs.Value__.Value,
      coreSame: core.Type === tb.Type && core.FormatRegistry === tb.FormatRegistry,
      sdkIndexLoaded: typeof sdkIndex === 'object',
      // the format registered here is the one Value.Check consults: one registry
      checks: [value.Value.Check(schema, { id: 1, at: 'ok then' }), value.Value.Check(schema, { id: 1, at: 'no' }), value.Value.Check(schema, { id: 1.5, at: 'ok' })],
      missing: [...${JSON.stringify(listed('typebox.mjs'))}.filter((n) => !(n in cjs)), ...${JSON.stringify(listed('typebox-value.mjs'))}.filter((n) => !(n in cjs.Value__))],
      typeboxFiles: files.filter((f) => f.includes(${JSON.stringify(path.join('node_modules', '@sinclair', 'typebox'))})).length,
    }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }).trim().split('\n').pop()!);
  assert.deepEqual(out, { typeFromBundle: true, valueFromBundle: true, coreSame: true, sdkIndexLoaded: true, checks: [true, false, false], missing: [], typeboxFiles: 0 });
});
