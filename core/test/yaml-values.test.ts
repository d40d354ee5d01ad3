import { test, beforeEach, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { parse } from 'yaml';
import { flushYamlValues, keptYamlValue, resetYamlValues, yamlValue } from '../src/config/yaml-values.js';
import { loadConfigFile } from '../src/config/loader.js';
import type { ConfigFileSpec, ConfigIssue } from '../src/config/types.js';

// every test gets its own home, so the cache file is this test's alone
const savedHome = process.env.HOME;
let home = '';
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-yaml-values-'));
  process.env.HOME = home;
  delete process.env.BASIN_YAML_CACHE;
  resetYamlValues();
});
after(() => {
  process.env.HOME = savedHome;
  resetYamlValues();
});

const cacheDir = () => path.join(home, '.cache', 'basin', 'yaml-values');
const cacheFile = () => {
  const files = fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()) : [];
  assert.equal(files.length, 1, `one cache file (${files.join(', ')})`);
  return path.join(cacheDir(), files[0]!);
};
const hashOf = (text: string) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);
const onDisk = (): Record<string, string> => JSON.parse(fs.readFileSync(cacheFile(), 'utf8'));

const TEXT = 'project:\n  name: demo\n  tags: [a, b]\n  port: 8800\n  ratio: 0.5\n  on: true\n  none: ~\n';

test('a text is answered the way yaml parses it, kept on disk by its hash, and read back from there by a new process', () => {
  const value = yamlValue(TEXT);
  assert.deepEqual(value, parse(TEXT));
  flushYamlValues();
  assert.deepEqual(JSON.parse(onDisk()[hashOf(TEXT)]!), parse(TEXT));
  assert.equal(fs.statSync(cacheFile()).mode & 0o777, 0o600, 'only its owner reads the cache');
  assert.equal(fs.statSync(cacheDir()).mode & 0o777, 0o700);

  // a new process (the store forgotten) answers from the file: an entry changed there is what comes back
  const entries = onDisk();
  entries[hashOf(TEXT)] = JSON.stringify({ from: 'the cache' });
  fs.writeFileSync(cacheFile(), JSON.stringify(entries));
  resetYamlValues();
  assert.deepEqual(yamlValue(TEXT), { from: 'the cache' });
  assert.deepEqual(keptYamlValue(TEXT), { value: { from: 'the cache' } });
  assert.equal(keptYamlValue(`${TEXT}# another text\n`), undefined);
});

test('each answer is a fresh copy: a caller that changes its value does not change the next answer', () => {
  const first = yamlValue(TEXT) as { project: { tags: string[] } };
  first.project.tags.push('changed');
  assert.deepEqual(yamlValue(TEXT), parse(TEXT));
  const kept = keptYamlValue(TEXT)!.value as { project: { name: string } };
  kept.project.name = 'changed';
  assert.deepEqual(keptYamlValue(TEXT)!.value, parse(TEXT));
});

test('values JSON would change, and texts with errors, are not kept', () => {
  for (const text of ['a: .inf\n', 'a: .nan\n', 'a: -0\n', 'a: [1, -.inf]\n', '__proto__: {polluted: true}\n']) {
    assert.deepEqual(yamlValue(text), parse(text), text);
    assert.equal(keptYamlValue(text), undefined, `${text} is not kept`);
  }
  const broken = 'a: [1, 2\n';
  assert.throws(() => yamlValue(broken), (e: Error) => e.name === 'YAMLParseError', 'an error is thrown as yaml parse throws it');
  assert.throws(() => yamlValue('a: 1\na: 2\n'), /unique/, 'duplicate keys are an error, as in yaml parse');
  assert.equal(keptYamlValue(broken), undefined);
  flushYamlValues();
  assert.equal(fs.existsSync(cacheDir()), false, 'nothing was kept, nothing written');
  // an empty text is null, as yaml parse gives it
  assert.equal(yamlValue(''), null);
});

test('BASIN_YAML_CACHE=0 keeps nothing; an unreadable cache file is ignored and replaced', () => {
  process.env.BASIN_YAML_CACHE = '0';
  assert.deepEqual(yamlValue(TEXT), parse(TEXT));
  assert.equal(keptYamlValue(TEXT), undefined);
  flushYamlValues();
  assert.equal(fs.existsSync(cacheDir()), false);

  delete process.env.BASIN_YAML_CACHE;
  resetYamlValues();
  fs.mkdirSync(cacheDir(), { recursive: true });
  fs.writeFileSync(path.join(cacheDir(), `yaml-${(createRequire(import.meta.url)('yaml/package.json') as { version: string }).version}.json`), '{"half-writ');
  assert.deepEqual(yamlValue(TEXT), parse(TEXT));
  flushYamlValues();
  assert.ok(onDisk()[hashOf(TEXT)], 'the file was written again, whole');
});

test('the file keeps the 256 entries used last', () => {
  for (let i = 0; i < 300; i++) yamlValue(`n: ${i}\n`);
  flushYamlValues();
  const keys = Object.keys(onDisk());
  assert.equal(keys.length, 256);
  assert.equal(keys.at(-1), hashOf('n: 299\n'));
  assert.ok(!keys.includes(hashOf('n: 0\n')), 'the oldest went first');
  // a kept text used again moves to the end
  resetYamlValues();
  assert.deepEqual(yamlValue('n: 100\n'), { n: 100 });
  flushYamlValues();
  assert.equal(Object.keys(onDisk()).at(-1), hashOf('n: 100\n'));
});

const fileSpec = (sensitive: boolean): ConfigFileSpec => ({
  id: 'things',
  path: 'things.yml',
  format: 'yaml',
  sensitive,
  schema: Type.Object({ things: Type.Array(Type.Object({ name: Type.String(), size: Type.Integer() }, { additionalProperties: false }), { default: [] }) }, { additionalProperties: false }),
});

test('the config loader: a kept file gives the same value and places its issues at the same lines and columns', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-yaml-project-'));
  const text = 'things:\n  - name: a\n    size: 1\n  - name: b\n    size: big\n    colour: red\n';
  fs.writeFileSync(path.join(dir, 'things.yml'), text);
  const load = () => {
    const issues: ConfigIssue[] = [];
    const file = loadConfigFile(dir, fileSpec(false), issues);
    return { value: file.value, issues };
  };
  const first = load();
  assert.equal(keptYamlValue(text) !== undefined, true, 'the loader kept the text');
  assert.ok(first.issues.length >= 2, JSON.stringify(first.issues));
  assert.ok(first.issues.every((i) => typeof i.line === 'number' && typeof i.column === 'number'), 'issues are placed');
  flushYamlValues();
  resetYamlValues();
  const second = load();
  assert.deepEqual(second.issues, first.issues);
  assert.deepEqual(second.value, first.value);
  // the wrong value is placed at the value, the unknown key at the key
  assert.deepEqual(
    first.issues.map((i) => [i.path, i.line, i.column]),
    [
      ['/things/1/colour', 6, 5],
      ['/things/1/size', 5, 11],
    ],
  );
});

test('the config loader never keeps a sensitive file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-yaml-project-'));
  const text = 'things:\n  - name: secret-ish\n    size: 3\n';
  fs.writeFileSync(path.join(dir, 'things.yml'), text);
  const issues: ConfigIssue[] = [];
  assert.deepEqual(loadConfigFile(dir, fileSpec(true), issues).value, { things: [{ name: 'secret-ish', size: 3 }] });
  assert.deepEqual(issues, []);
  assert.equal(keptYamlValue(text), undefined);
  flushYamlValues();
  assert.equal(fs.existsSync(cacheDir()), false);
});
