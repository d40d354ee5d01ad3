import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderPlugins, definePlugin } from '../src/index.js';

const p = (name: string, dependsOn: string[] = [], optionalDependsOn: string[] = []) => definePlugin({ name, dependsOn, optionalDependsOn });

test('dependencies register before their dependents', () => {
  const names = orderPlugins([p('sync', ['sources']), p('transform', ['sync']), p('sources')]).map((x) => x.name);
  assert.deepEqual(names, ['sources', 'sync', 'transform']);
});

test('optional dependencies order only when present', () => {
  assert.deepEqual(orderPlugins([p('gov', [], ['sync']), p('sync')]).map((x) => x.name), ['sync', 'gov']);
  assert.deepEqual(orderPlugins([p('gov', [], ['sync'])]).map((x) => x.name), ['gov']);
});

test('a missing dependency names both plugins', () => {
  assert.throws(() => orderPlugins([p('sync', ['sources'])]), /Plugin "sync" depends on plugin "sources", which is not installed/);
});

test('a cycle names the plugins in it', () => {
  assert.throws(() => orderPlugins([p('a', ['b']), p('b', ['a'])]), /cycle: a -> b -> a .*between "b" and "a"/);
});

test('duplicate plugin names are refused', () => {
  assert.throws(() => orderPlugins([p('a'), p('a')]), /Two plugins are named "a"/);
});
