import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

test("core/vendor/yaml.cjs loads yaml's bundle when an export is first read, and exports all of yaml", { skip: !fs.existsSync(path.join(root, 'core', 'dist', 'vendor', 'yaml.cjs')) && 'core is not built' }, () => {
  // in a process of its own: this one may have loaded the bundle already
  const script = `
    const shim = require(${JSON.stringify(path.join(root, 'core', 'vendor', 'yaml.cjs'))});
    const loaded = () => Object.keys(require.cache).some((f) => f.endsWith(${JSON.stringify(path.join('dist', 'vendor', 'yaml.cjs'))}));
    const before = loaded();
    const names = Object.keys(shim);
    const stillBefore = loaded();
    const value = shim.parse('a: [1, 2]');
    console.log(JSON.stringify({ before, stillBefore, after: loaded(), names, value }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })) as { before: boolean; stillBefore: boolean; after: boolean; names: string[]; value: unknown };
  assert.equal(out.before, false, 'requiring the shim does not load the parser');
  assert.equal(out.stillBefore, false, 'listing its names does not either');
  assert.equal(out.after, true, 'the first use loads it');
  assert.deepEqual(out.value, { a: [1, 2] });
  assert.deepEqual([...out.names].sort(), Object.keys(require('yaml') as object).sort());
});

test("core/vendor/dotenv.cjs gives the plugins dotenv's parse from its bundle, loaded on first use, by require and by ES import", { skip: !fs.existsSync(path.join(root, 'core', 'dist', 'vendor', 'dotenv.cjs')) && 'core is not built' }, async () => {
  const shimFile = path.join(root, 'core', 'vendor', 'dotenv.cjs');
  const script = `
    const shim = require(${JSON.stringify(shimFile)});
    const loaded = () => Object.keys(require.cache).some((f) => f.endsWith(${JSON.stringify(path.join('dist', 'vendor', 'dotenv.cjs'))}));
    const before = loaded();
    const value = shim.parse('A=1\\nexport B="two words" # note\\nC=');
    console.log(JSON.stringify({ before, after: loaded(), real: Object.keys(require.cache).some((f) => f.includes('node_modules/dotenv/')), value }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })) as { before: boolean; after: boolean; real: boolean; value: unknown };
  assert.deepEqual(out, { before: false, after: true, real: false, value: { A: '1', B: 'two words', C: '' } });
  // the plugins' built code: `import dotenv from '@basin/core/dotenv'` (default) or a named import
  const esm = (await import(shimFile)) as { default: { parse: (s: string) => unknown }; parse: (s: string) => unknown };
  assert.deepEqual(esm.default.parse('X=1'), { X: '1' });
  assert.deepEqual(esm.parse('X=2'), { X: '2' });
  assert.deepEqual(esm.parse('A=1\nB=2'), (require('dotenv') as { parse: (s: string) => unknown }).parse('A=1\nB=2'));
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

test('the Latin-1 output step escapes characters above U+00FF without changing what regular expressions match', async () => {
  const { latin1Output } = (await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'tsup-vendor.mjs')).href)) as {
    latin1Output: { renderChunk(code: string, info: { type: string }): { code: string } | undefined };
  };
  const source = [
    '// luxon: 11/7/2022 – 11/8/2022, နံနက်',
    'const jp = /(\\d+丁目|[都道府県].{0,8}[市区町村郡])/u;',
    "const quote = /['’-]/;",
    'const ko = /(주식회사|은행)/u;',
    'const emoji = /😀/u;',
    'const latin = /[øØß]/;',
    'module.exports = { jp, quote, ko, emoji, latin };',
  ].join('\n');
  const out = latin1Output.renderChunk(source, { type: 'chunk' })!.code;
  assert.doesNotMatch(out, /[^\x00-\xff]/, 'nothing above U+00FF is left');
  assert.match(out, /[øØß]/, 'Latin-1 stays as written');
  const load = (code: string) => {
    const m = { exports: {} as Record<string, RegExp> };
    new Function('module', code)(m);
    return m.exports;
  };
  const before = load(source);
  const after = load(out);
  const samples = ['東京都千代田区', '3丁目', 'it’s', 'it-s', '주식회사', '은행', 'a😀b', 'Søren', 'plain'];
  for (const k of Object.keys(before)) {
    assert.equal(after[k]!.flags, before[k]!.flags);
    for (const s of samples) assert.equal(after[k]!.test(s), before[k]!.test(s), `${k} on ${s}`);
  }
  assert.equal(latin1Output.renderChunk('const a = 1;', { type: 'chunk' }), undefined, 'ASCII output is left alone');
});

test("the built core takes commander from its bundle (dist/vendor/commander.cjs), with commander's exports", { skip: !fs.existsSync(path.join(root, 'core', 'dist', 'vendor', 'commander.cjs')) && 'core is not built' }, () => {
  // in a process of its own, through the ESM import of core's built index as `basin` runs it
  const script = `
    const { runCli } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'core', 'dist', 'index.js')).href)});
    const shim = await import(${JSON.stringify(pathToFileURL(path.join(root, 'core', 'vendor', 'commander.cjs')).href)});
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const files = Object.keys(require.cache);
    const cmd = new shim.Command('x').option('--n <n>', 'a number', '1').exitOverride();
    cmd.parse(['--n', '7'], { from: 'user' });
    let unknown = null;
    try { new shim.Command('y').exitOverride().configureOutput({ writeErr: () => {} }).parse(['--nope'], { from: 'user' }); } catch (e) { unknown = e instanceof shim.CommanderError ? e.code : 'other'; }
    console.log(JSON.stringify({
      runCli: typeof runCli,
      bundle: files.some((f) => f.endsWith(${JSON.stringify(path.join('dist', 'vendor', 'commander.cjs'))})),
      package: files.some((f) => f.includes(${JSON.stringify(path.join('node_modules', 'commander', 'lib'))})),
      names: Object.keys(shim).filter((n) => n !== 'default').sort(),
      n: cmd.opts().n,
      unknown,
    }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }));
  assert.equal(out.runCli, 'function');
  assert.equal(out.bundle, true, "core's import of commander loads the bundle");
  assert.equal(out.package, false, "and not commander's own files");
  assert.deepEqual(out.names, ['Argument', 'Command', 'CommanderError', 'Help', 'InvalidArgumentError', 'InvalidOptionArgumentError', 'Option']);
  assert.equal(out.n, '7');
  assert.equal(out.unknown, 'commander.unknownOption');
});
