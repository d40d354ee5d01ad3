import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bootApp, disableAuth, makeProject, rmrf } from '@basin/test';
import catalog from '../src/index.js';
import { seedWarehouse, writeArtifacts } from './fixture.js';

async function withApp(fn: (app: Awaited<ReturnType<typeof bootApp>>, dir: string) => Promise<void>): Promise<void> {
  const dir = makeProject();
  disableAuth(dir);
  const app = await bootApp(dir, { plugins: [catalog] });
  try {
    await seedWarehouse(app);
    await fn(app, dir);
  } finally {
    await app.close();
    rmrf(path.dirname(dir));
  }
}

test('without a dbt manifest, warehouse tables outside raw schemas are listed as models without SQL', async () => {
  await withApp(async (app) => {
    const models = (await app.http.inject({ method: 'GET', url: '/api/catalog/models' })).json();
    const by = Object.fromEntries(models.map((m: any) => [m.name, m]));
    assert.equal(by['shop.orders'].layer, 'raw');
    assert.equal(by['stg_shop__orders'].layer, 'staging');
    assert.equal(by['int_orders_enriched'].layer, 'intermediate');
    assert.equal(by['fct_revenue'].layer, 'marts');
    const d = (await app.http.inject({ method: 'GET', url: '/api/catalog/models/fct_revenue' })).json();
    assert.equal(d.raw_sql, null);
    assert.equal(d.column_lineage, null);
    assert.deepEqual(d.columns.map((c: any) => c.name), ['country', 'revenue']);
  });
});

test('a manifest appearing or changing is picked up without a restart; a corrupt one is ignored', async () => {
  await withApp(async (app, dir) => {
    const names = async () => (await app.http.inject({ method: 'GET', url: '/api/catalog/models' })).json().map((m: any) => m.name);
    assert.ok((await names()).includes('dim_customers'), 'the warehouse table is listed before any manifest');
    writeArtifacts(dir);
    const d = (await app.http.inject({ method: 'GET', url: '/api/catalog/models/stg_shop__orders' })).json();
    assert.match(d.raw_sql, /source\('shop', 'orders'\)/);
    const file = path.join(dir, 'tx/target/manifest.json');
    fs.writeFileSync(file, '{"nodes": ');
    const r = await app.http.inject({ method: 'GET', url: '/api/catalog/models' });
    assert.equal(r.statusCode, 200);
    const fallback = (await app.http.inject({ method: 'GET', url: '/api/catalog/models/stg_shop__orders' })).json();
    assert.equal(fallback.raw_sql, null, 'falls back to the warehouse view of models');
  });
});

test('catalog.json supplies column types of models not (yet) in the warehouse', async () => {
  await withApp(async (app, dir) => {
    writeArtifacts(dir);
    const mf = path.join(dir, 'tx/target/manifest.json');
    const manifest = JSON.parse(fs.readFileSync(mf, 'utf8'));
    const node = structuredClone(manifest.nodes['model.shop_analytics.fct_revenue']);
    Object.assign(node, { name: 'fct_margin', alias: 'fct_margin', unique_id: 'model.shop_analytics.fct_margin', columns: {} });
    manifest.nodes['model.shop_analytics.fct_margin'] = node;
    fs.writeFileSync(mf, JSON.stringify(manifest));
    fs.writeFileSync(
      path.join(dir, 'tx/target/catalog.json'),
      JSON.stringify({ nodes: { 'model.shop_analytics.fct_margin': { metadata: { schema: 'main', name: 'fct_margin', type: 'BASE TABLE' }, columns: { margin: { type: 'DECIMAL(18,2)', index: 2, name: 'margin' }, country: { type: 'VARCHAR', index: 1, name: 'country' } } } }, sources: {} }),
    );
    const d = (await app.http.inject({ method: 'GET', url: '/api/catalog/models/fct_margin' })).json();
    assert.equal(d.in_warehouse, false);
    assert.deepEqual(d.columns.map((c: any) => [c.name, c.type]), [['country', 'VARCHAR'], ['margin', 'DECIMAL(18,2)']]);
  });
});
