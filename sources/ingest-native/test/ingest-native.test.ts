import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import source from '../src/index.js';

const sdkDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../sdk');

/** A project with custom_sources/ modules and @basin/sdk installed the way a user would have it. */
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-native-'));
  fs.mkdirSync(path.join(dir, 'node_modules/@basin'), { recursive: true });
  fs.symlinkSync(sdkDir, path.join(dir, 'node_modules/@basin/sdk'));
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

// An async-generator factory: incremental by the last id it saw, through ctx.state.
const ORDERS = `
import fs from 'node:fs';
import path from 'node:path';
export async function* orders(kwargs, ctx) {
  const upstream = JSON.parse(fs.readFileSync(path.join(ctx.projectDir, 'upstream.json'), 'utf8'));
  const last = ctx.state.orders?.last_id ?? 0;
  const rows = upstream.orders.filter((id) => id > last).map((id) => ({ id, shop: kwargs.shop, amount: id * kwargs.multiplier }));
  if (rows.length) yield { kind: 'records', resource: 'orders', records: rows };
  yield { kind: 'state', resource: 'orders', state: { last_id: Math.max(last, ...upstream.orders) } };
}
export function notAFactoryResult() { return 42; }
export const plainValue = 'x';
`;

// A factory returning a source made with the SDK; function_kwargs become its config.
const CATALOG = `
import { defineSource, Type } from '@basin/sdk';
export function catalog(kwargs) {
  return defineSource({
    type: 'catalog', category: 'custom', authKind: 'none', wizard: false,
    configSchema: Type.Object({ prefix: Type.String(), count: Type.Integer({ default: 3 }) }),
    capabilities: { incremental: false, dateRange: false, customQueries: false },
    resources: [{ name: 'products', primaryKey: ['sku'], writeDisposition: 'replace' }],
    async check(ctx) { return { ok: true, message: 'catalog for ' + ctx.config.prefix }; },
    async discover() { return [{ name: 'products', primaryKey: ['sku'], writeDisposition: 'replace' }]; },
    async *read(ctx) {
      yield { kind: 'records', resource: 'products', records: Array.from({ length: ctx.config.count }, (_, i) => ({ sku: ctx.config.prefix + i })) };
    },
  });
}
`;

const dir = project({ 'upstream.json': '{"orders":[1,2,3]}', 'custom_sources/shop.mjs': ORDERS, 'custom_sources/catalog/index.mjs': CATALOG, 'outside.mjs': ORDERS });
const ordersConfig = { source_module: 'shop.mjs', source_function: 'orders', function_kwargs: { shop: 'berlin', multiplier: 10 }, dataset_name: 'orders' };

runSourceContract(source, ordersConfig, {
  name: 'shop',
  projectDir: dir,
  failingConfig: { ...ordersConfig, source_function: 'missing' },
  addData: () => fs.writeFileSync(path.join(dir, 'upstream.json'), '{"orders":[1,2,3,4]}'),
});

function read(config: Record<string, unknown>, state: Record<string, Record<string, unknown>> = {}) {
  const ctx = createTestContext(source, config, { name: 'shop', projectDir: dir });
  return collectRead(source, ctx, [], state);
}

describe('ingest_native', () => {
  test('a factory returning an async iterable: kwargs reach it and its rows come out', async () => {
    const r = await read({ ...ordersConfig, source_module: 'custom_sources/shop.mjs' });
    assert.deepEqual(r.records.orders!.slice(0, 3), [
      { id: 1, shop: 'berlin', amount: 10 },
      { id: 2, shop: 'berlin', amount: 20 },
      { id: 3, shop: 'berlin', amount: 30 },
    ]);
  });

  test('a factory returning a defineSource() source: function_kwargs become its config, with defaults', async () => {
    const cfg = { source_module: 'catalog', source_function: 'catalog', function_kwargs: { prefix: 'sku-' } };
    const ctx = createTestContext(source, cfg, { name: 'cat', projectDir: dir });
    assert.deepEqual(await source.check(ctx), { ok: true, message: 'catalog for sku-' });
    assert.deepEqual((await source.discover(ctx)).map((r) => r.name), ['products']);
    const r = await collectRead(source, ctx, [{ name: 'products' }]);
    assert.deepEqual(r.records.products, [{ sku: 'sku-0' }, { sku: 'sku-1' }, { sku: 'sku-2' }]);
    await assert.rejects(read({ ...cfg, function_kwargs: { prefix: 1 } }), (err: any) => err.code === 'invalid_config' && /prefix/.test(err.message));
  });

  test('modules outside custom_sources/ are refused, also through symlinks', async () => {
    for (const m of ['../outside.mjs', '/etc/passwd', 'custom_sources/../outside.mjs', '..']) {
      await assert.rejects(read({ ...ordersConfig, source_module: m }), (err: any) => err.code === 'module_outside_custom_sources', m);
    }
    fs.symlinkSync(path.join(dir, 'outside.mjs'), path.join(dir, 'custom_sources/sneaky.mjs'));
    await assert.rejects(read({ ...ordersConfig, source_module: 'sneaky.mjs' }), (err: any) => err.code === 'module_outside_custom_sources');
  });

  test('clear errors: missing module, missing export (listing what exists), wrong return value', async () => {
    await assert.rejects(read({ ...ordersConfig, source_module: 'nope' }), (err: any) => err.code === 'module_not_found' && /custom_sources\/nope\.mjs/.test(err.message));
    await assert.rejects(read({ ...ordersConfig, source_function: 'order' }), (err: any) => err.code === 'function_not_found' && /exports .*orders/.test(err.message));
    await assert.rejects(read({ ...ordersConfig, source_function: 'notAFactoryResult' }), (err: any) => err.code === 'invalid_source_function');
    await assert.rejects(read({ ...ordersConfig, source_function: 'plainValue' }), (err: any) => err.code === 'function_not_found');
    const check = await source.check(createTestContext(source, { ...ordersConfig, source_module: 'nope' }, { projectDir: dir }));
    assert.equal(check.ok, false);
  });

  test('dotted module names and edits on disk are picked up', async () => {
    const p = project({ 'custom_sources/pkg/mod.mjs': 'export async function* f() { yield [{ v: 1 }]; }' });
    const cfg = { source_module: 'pkg.mod', source_function: 'f' };
    const ctx = () => createTestContext(source, cfg, { name: 'dyn', projectDir: p });
    assert.deepEqual((await collectRead(source, ctx(), [])).records.dyn, [{ v: 1 }]);
    const file = path.join(p, 'custom_sources/pkg/mod.mjs');
    fs.writeFileSync(file, 'export async function* f() { yield [{ v: 2 }]; }');
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    assert.deepEqual((await collectRead(source, ctx(), [])).records.dyn, [{ v: 2 }]);
  });

  test('schema: source_module and source_function required, function_kwargs defaults to {}', () => {
    assert.throws(() => createTestContext(source, { source_module: 'x' }), /source_function/);
    assert.deepEqual(createTestContext(source, { source_module: 'x', source_function: 'f' }).config.function_kwargs, {});
  });
});
