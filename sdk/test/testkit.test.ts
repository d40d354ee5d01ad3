import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { defineSource, Type, type ReadItem } from '../src/index.js';
import { assertWellFormed, collectRead, createTestContext } from '../src/testkit/index.js';

const declared = new Set(['items']);

test('assertWellFormed rejects what the engine could not load', () => {
  const ok: ReadItem[] = [
    { kind: 'records', resource: 'items', records: [{ a: 1 }] },
    { kind: 'forget_files', resource: 'items', sourceFiles: ['x.csv'] },
    { kind: 'state', resource: 'items', state: { cursor: 3 } },
    { kind: 'file', resource: 'items', path: fs.realpathSync('.'), format: 'csv' },
  ];
  for (const i of ok) assertWellFormed(i, declared, 10);
  const bad: Array<[unknown, RegExp]> = [
    [{ kind: 'rows', resource: 'items' }, /unknown item kind/],
    [{ kind: 'records', resource: 'other', records: [{}] }, /undeclared resource/],
    [{ kind: 'records', resource: 'items', records: [] }, /empty records batch/],
    [{ kind: 'records', resource: 'items', records: Array.from({ length: 11 }, () => ({})) }, /larger than 10/],
    [{ kind: 'records', resource: 'items', records: [[1, 2]] }, /not a plain object/],
    [{ kind: 'records', resource: 'items', records: [new Date()] }, /not a plain object/],
    [{ kind: 'file', resource: 'items', path: '/nonexistent/x.csv', format: 'csv' }, /missing file/],
    [{ kind: 'file', resource: 'items', path: '.', format: 'xlsx' }, /bad file format/],
    [{ kind: 'state', resource: 'items', state: { at: new Date(0) } }, /JSON round trip/],
  ];
  for (const [item, re] of bad) assert.throws(() => assertWellFormed(item as ReadItem, declared, 10), re, JSON.stringify(item));
});

const demo = defineSource({
  type: 'demo',
  category: 'custom',
  authKind: 'apiKey',
  wizard: false,
  configSchema: Type.Object({ token_env: Type.String(), n: Type.Integer({ default: 2 }) }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  async check() {
    return { ok: true };
  },
  async discover() {
    return [{ name: 'items' }];
  },
  async *read(ctx) {
    ctx.secret(ctx.config.token_env);
    for (let i = 0; i < ctx.config.n; i++) yield { kind: 'records', resource: 'items', records: [{ i }] };
    yield { kind: 'state', resource: 'items', state: { done: 1 } };
    yield { kind: 'state', resource: 'items', state: { done: 2 } };
  },
});

test('createTestContext applies defaults, resolves secrets only from the given env, records what was revealed', async () => {
  process.env.SHOULD_NOT_BE_USED = 'from-process';
  const ctx = createTestContext(demo, { token_env: 'SHOULD_NOT_BE_USED' });
  assert.equal(ctx.config.n, 2);
  assert.throws(() => ctx.secret('SHOULD_NOT_BE_USED'), /SHOULD_NOT_BE_USED is not set/);
  const ok = createTestContext(demo, { token_env: 'T' }, { env: { T: 'secret-value' } });
  const r = await collectRead(demo, ok, [{ name: 'items' }]);
  assert.deepEqual(r.records.items, [{ i: 0 }, { i: 1 }]);
  assert.deepEqual(r.state.items, { done: 2 }, 'the last state wins');
  assert.equal(r.dataItems, 2);
  assert.ok(ok.revealed.has('secret-value'));
  assert.throws(() => createTestContext(demo, { n: 1 }), /token_env/);
});
