// core/vendor/load-bundle.cjs: core's CommonJS bundles load with a V8 code cache that is written once,
// used by the next process, refused (and made again) when the bundle changed or the file is damaged,
// and never changes what the bundle exports.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { tempDir } from '@basin/test';

const loader = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../vendor/load-bundle.cjs');

/** loads `bundle` twice in a fresh process; what it exported, whether both loads gave one object, the cache status at exit */
function run(bundle: string, env: Record<string, string> = {}, flags: string[] = []): { value: number; same: boolean; status: string } {
  const script = `
    const { loadBundle, codeCacheStatus } = require(${JSON.stringify(loader)});
    const a = loadBundle(${JSON.stringify(bundle)});
    const b = require(${JSON.stringify(bundle)});
    const value = a.twice(21);
    process.on('exit', () => console.log(JSON.stringify({ value, same: a === b, status: codeCacheStatus().get(${JSON.stringify(bundle)}) })));`;
  const out = execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const cacheOf = (bundle: string) => fs.readdirSync(path.dirname(bundle)).filter((f) => f.endsWith('.v8cache')).map((f) => path.join(path.dirname(bundle), f));

test('a bundle is compiled once: the first process writes the cache, the next uses it; exports are unchanged', () => {
  const dir = tempDir();
  const bundle = path.join(dir, 'bundle.cjs');
  fs.writeFileSync(bundle, `let n = 0;\nmodule.exports = { twice: (x) => { n++; return x * 2; }, calls: () => n };\n`);
  assert.deepEqual(run(bundle), { value: 42, same: true, status: 'written' });
  assert.equal(cacheOf(bundle).length, 1, 'the cache sits beside the bundle');
  assert.deepEqual(run(bundle), { value: 42, same: true, status: 'used' });
});

test('a changed bundle or a damaged cache is refused by V8 and made again; BASIN_CODE_CACHE=0 loads without one', () => {
  const dir = tempDir();
  const bundle = path.join(dir, 'bundle.cjs');
  fs.writeFileSync(bundle, `module.exports = { twice: (x) => x * 2 };\n`);
  run(bundle);
  // the same length, other source text (V8 checks only the length): a cache of its own, the old one gone
  fs.writeFileSync(bundle, `module.exports = { twice: (x) => x + 1 };\n`);
  assert.deepEqual(run(bundle), { value: 22, same: true, status: 'written' });
  assert.equal(run(bundle).status, 'used');
  assert.equal(cacheOf(bundle).length, 1);
  fs.writeFileSync(cacheOf(bundle)[0]!, Buffer.from('not a code cache at all'));
  assert.deepEqual(run(bundle), { value: 22, same: true, status: 'written' });
  assert.equal(run(bundle).status, 'used');

  const plain = path.join(tempDir(), 'bundle.cjs');
  fs.writeFileSync(plain, `module.exports = { twice: (x) => x * 2 };\n`);
  assert.deepEqual(run(plain, { BASIN_CODE_CACHE: '0' }), { value: 42, same: true, status: 'off' });
  assert.deepEqual(cacheOf(plain), []);
});

test('processes with other Node flags keep a cache each instead of replacing one another\'s', () => {
  const dir = tempDir();
  const bundle = path.join(dir, 'bundle.cjs');
  fs.writeFileSync(bundle, `module.exports = { twice: (x) => x * 2 };\n`);
  // V8 refuses a cache made under other flags: with one cache file, each switch would make it again
  const semi = ['--max-semi-space-size=2'];
  assert.equal(run(bundle).status, 'written');
  assert.equal(run(bundle, {}, semi).status, 'written');
  assert.equal(cacheOf(bundle).length, 2);
  assert.equal(run(bundle).status, 'used');
  assert.equal(run(bundle, {}, semi).status, 'used');
  // an edited bundle drops the caches of its old text, whatever their flags
  fs.writeFileSync(bundle, `module.exports = { twice: (x) => x + x };\n`);
  assert.equal(run(bundle, {}, semi).status, 'written');
  assert.equal(cacheOf(bundle).length, 1);
});

test('a bundle with UTF-8 text keeps its characters; an ASCII one loads the same way (read as one-byte text)', () => {
  const dir = tempDir();
  const text = (file: string) => {
    const script = `const { loadBundle } = require(${JSON.stringify(loader)}); console.log(JSON.stringify(loadBundle(${JSON.stringify(file)}).text()));`;
    return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim().split('\n').pop()!) as string;
  };
  const utf8 = path.join(dir, 'utf8', 'bundle.cjs');
  const ascii = path.join(dir, 'ascii', 'bundle.cjs');
  for (const f of [utf8, ascii]) fs.mkdirSync(path.dirname(f));
  // a comment and a regular expression with characters beyond ASCII, as esbuild leaves them
  fs.writeFileSync(utf8, `// Jimmy Wärting\nmodule.exports = { text: () => 'Straße º é'.replace(/ß/g, 'ss') };\n`);
  fs.writeFileSync(ascii, `module.exports = { text: () => 'Stra\\u00dfe \\u00ba \\u00e9'.replace(/\\u00df/g, 'ss') };\n`);
  for (const f of [utf8, ascii]) {
    assert.equal(text(f), 'Strasse º é', f);
    // the second process runs the cache the first wrote, with the same result
    assert.equal(text(f), 'Strasse º é', f);
    assert.equal(cacheOf(f).length, 1);
  }
});
