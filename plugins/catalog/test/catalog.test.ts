import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { asValue, ManualClock, type BasinApp, type Principal } from '@basin/core';
import { bootApp, disableAuth, makeProject, rmrf } from '@basin/test';
import governance from '@basin/plugin-governance';
import catalog from '../src/index.js';
import { seedWarehouse, writeArtifacts } from './fixture.js';

let app: BasinApp;
let dir: string;

/** principals chosen per request by a header, to test permission-dependent answers */
const authenticator = {
  async authenticate(req: { headers: Record<string, unknown> }): Promise<Principal | null> {
    const perms = String(req.headers['x-test-perms'] ?? 'source.view,governance.view,governance.manage').split(',');
    return { kind: 'api_key', userId: 'u1', email: 'u@example.com', role: 'viewer', permissions: new Set(perms) };
  },
};

before(async () => {
  dir = makeProject();
  disableAuth(dir);
  writeArtifacts(dir);
  app = await bootApp(dir, { plugins: [governance, catalog], clock: new ManualClock('2026-03-02T00:00:00Z'), overrides: { authenticator: asValue(authenticator) } });
  await seedWarehouse(app);
});
after(async () => {
  await app.close();
  rmrf(path.dirname(dir));
});

const get = async (url: string, perms?: string) => {
  const r = await app.http.inject({ method: 'GET', url, headers: perms ? { 'x-test-perms': perms } : {} });
  return { status: r.statusCode, body: r.json() };
};

test('models lists raw tables and dbt models with layers and an overview', async () => {
  const { status, body } = await get('/api/catalog/models');
  assert.equal(status, 200);
  const by = Object.fromEntries(body.map((m: any) => [m.name, m]));
  assert.deepEqual(
    body.map((m: any) => [m.name, m.type, m.layer]),
    [
      ['shop.customers', 'source', 'raw'],
      ['shop.orders', 'source', 'raw'],
      ['stg_shop__customers', 'model', 'staging'],
      ['stg_shop__orders', 'model', 'staging'],
      ['int_orders_enriched', 'model', 'intermediate'],
      ['dim_customers', 'model', 'marts'],
      ['fct_revenue', 'model', 'marts'],
    ],
  );
  assert.equal(by['shop.orders'].description, 'Orders loaded from the shop');
  assert.equal(by['shop.orders'].estimated_rows, 4);
  assert.deepEqual(by['int_orders_enriched'].dependencies, ['stg_shop__orders', 'stg_shop__customers']);
  assert.equal(by['stg_shop__customers'].dependents_count, 3);
  assert.equal(by['stg_shop__orders'].materialized, 'view');
  assert.equal(by['stg_shop__orders'].tests_count, 2);
});

test('model detail: columns with descriptions and tests, raw and compiled SQL, dependencies, dependents, lineage', async () => {
  const { status, body } = await get('/api/catalog/models/stg_shop__orders');
  assert.equal(status, 200);
  assert.deepEqual(body.columns.map((c: any) => [c.name, c.type]), [['order_id', 'INTEGER'], ['customer_id', 'INTEGER'], ['amount', 'DOUBLE'], ['status', 'VARCHAR']]);
  assert.equal(body.columns[0].description, 'One row per order');
  // profiling stats computed on first view and cached
  const amount = body.columns.find((c: any) => c.name === 'amount').profile;
  assert.deepEqual([amount.null_percentage, amount.distinct_count, amount.min, amount.max], [25, 3, '5.5', '100.25']);
  assert.ok(body.profiled_at);
  assert.deepEqual(body.columns[0].tests.sort(), ['not_null', 'unique']);
  assert.match(body.raw_sql, /\{\{ source\('shop', 'orders'\) \}\}/);
  assert.match(body.compiled_sql, /"raw_shop"\."orders"/);
  assert.deepEqual(body.tests.map((t: any) => [t.type, t.column, t.status]).sort(), [['not_null', 'order_id', 'pass'], ['unique', 'order_id', 'fail']]);
  assert.deepEqual(body.dependencies.map((d: any) => d.name), ['shop.orders']);
  assert.deepEqual(body.dependents.map((d: any) => d.name), ['int_orders_enriched']);
  assert.deepEqual(new Set(body.lineage.nodes.map((n: any) => n.name)), new Set(['shop.orders', 'stg_shop__orders', 'int_orders_enriched', 'fct_revenue']));
  assert.equal((await get('/api/catalog/models/no_such_model')).status, 404);
});

test('column lineage (beyond SPEC) follows aliases, joins, CTEs and stars through the parse tree', async () => {
  const stg = (await get('/api/catalog/models/stg_shop__orders')).body.column_lineage;
  assert.equal(stg.beyond_spec, true);
  assert.deepEqual(stg.columns.find((c: any) => c.column === 'order_id').sources, [{ node: 'raw.raw_shop.orders', column: 'id', name: 'shop.orders' }]);
  const cust = (await get('/api/catalog/models/stg_shop__customers')).body.column_lineage.columns;
  assert.deepEqual(cust.map((c: any) => [c.column, c.sources.map((s: any) => `${s.name}.${s.column}`)]), [['customer_id', ['shop.customers.id']], ['country', ['shop.customers.country']]]);
  const enriched = (await get('/api/catalog/models/int_orders_enriched')).body.column_lineage.columns;
  assert.deepEqual(enriched.find((c: any) => c.column === 'country').sources.map((s: any) => s.name), ['stg_shop__customers']);
  const fct = (await get('/api/catalog/models/fct_revenue')).body.column_lineage.columns;
  assert.deepEqual(fct.find((c: any) => c.column === 'revenue').sources.map((s: any) => `${s.name}.${s.column}`), ['int_orders_enriched.amount']);
  const dim = (await get('/api/catalog/models/dim_customers')).body.column_lineage.columns;
  assert.deepEqual(dim.map((c: any) => c.column), ['customer_id', 'country'], 'select * expands to the upstream columns');
});

test('lineage spans raw, staging, intermediate and marts', async () => {
  const { body } = await get('/api/catalog/lineage');
  assert.deepEqual(body.layers, ['raw', 'staging', 'intermediate', 'marts']);
  const name = Object.fromEntries(body.nodes.map((n: any) => [n.id, n.name]));
  const edges = body.edges.map((e: any) => `${name[e.from]}->${name[e.to]}`).sort();
  assert.deepEqual(edges, [
    'int_orders_enriched->fct_revenue',
    'shop.customers->stg_shop__customers',
    'shop.orders->stg_shop__orders',
    'stg_shop__customers->dim_customers',
    'stg_shop__customers->fct_revenue',
    'stg_shop__customers->int_orders_enriched',
    'stg_shop__orders->int_orders_enriched',
  ]);
});

test('impact gives the downstream tree and counts a node reached twice once', async () => {
  const { body } = await get('/api/catalog/impact/stg_shop__customers');
  assert.equal(body.total, 3);
  const names = (list: any[]): any => list.map((e) => (e.children.length ? { [e.name]: names(e.children) } : e.name));
  assert.deepEqual(names(body.downstream), ['dim_customers', 'fct_revenue', { int_orders_enriched: ['fct_revenue'] }]);
  assert.equal((await get('/api/catalog/impact/fct_revenue')).body.total, 0);
  assert.equal((await get('/api/catalog/impact/shop.orders')).body.total, 3);
});

test('search: 2 to 100 characters, ranked over names, descriptions and column names', async () => {
  assert.equal((await get('/api/catalog/search?q=a')).status, 422);
  assert.equal((await get(`/api/catalog/search?q=${'x'.repeat(101)}`)).status, 422);
  assert.equal((await get('/api/catalog/search')).status, 422);
  const { status, body } = await get('/api/catalog/search?q=revenue');
  assert.equal(status, 200);
  assert.equal(body[0].name, 'fct_revenue');
  assert.ok(body[0].matches.some((m: any) => m.field === 'name'));
  const byColumn = (await get('/api/catalog/search?q=country')).body;
  assert.ok(byColumn.length >= 4 && byColumn.every((h: any) => h.matches.some((m: any) => m.field === 'column')));
  const byDescription = (await get('/api/catalog/search?q=finance%20dashboard')).body;
  assert.deepEqual(byDescription.map((h: any) => h.name), ['fct_revenue']);
});

test('profile: one pass, correct null %, distinct, min and max; cached for the columns endpoint; serving copy preferred', async () => {
  let r = await get('/api/catalog/shop/orders/columns');
  assert.equal(r.status, 200);
  assert.equal(r.body.schema, 'raw_shop');
  assert.equal(r.body.profiled_at, null);
  assert.ok(r.body.columns.every((c: any) => c.profile === null));

  const p = await app.http.inject({ method: 'POST', url: '/api/catalog/shop/orders/profile' });
  assert.equal(p.statusCode, 200);
  const prof = p.json();
  assert.equal(prof.row_count, 4);
  // the warehouse publishes the serving copy on its own shortly after the seeding write
  assert.ok(['warehouse', 'serving_copy'].includes(prof.read_from), prof.read_from);
  const col = (n: string) => prof.columns.find((c: any) => c.name === n);
  assert.deepEqual([col('amount').null_percentage, col('amount').distinct_count, col('amount').min, col('amount').max], [25, 3, '5.5', '100.25']);
  assert.deepEqual([col('status').null_count, col('status').distinct_count, col('status').min, col('status').max], [1, 2, 'paid', 'refunded']);
  assert.equal(col('id').nullable, true);
  assert.equal(col('id').distinct_is_approximate, false);

  r = await get('/api/catalog/shop/orders/columns');
  assert.equal(r.body.row_count, 4);
  assert.equal(r.body.columns.find((c: any) => c.name === 'amount').profile.max, '100.25');

  await app.warehouse.publishServingCopy();
  const p2 = (await app.http.inject({ method: 'POST', url: '/api/catalog/shop/customers/profile' })).json();
  assert.equal(p2.read_from, 'serving_copy');
  assert.equal(p2.columns.find((c: any) => c.name === 'email').null_count, 1);
});

test('profile uses approximate distinct counts above 100k rows', async () => {
  await app.warehouse.write(async (c) => void (await c.run('CREATE SCHEMA raw_big; CREATE TABLE raw_big.events AS SELECT i AS id, i % 7 AS bucket FROM range(150000) t(i)')));
  const prof = (await app.http.inject({ method: 'POST', url: '/api/catalog/big/events/profile' })).json();
  const id = prof.columns.find((c: any) => c.name === 'id');
  assert.equal(id.distinct_is_approximate, true);
  assert.ok(Math.abs(id.distinct_count - 150000) / 150000 < 0.1, String(id.distinct_count));
  assert.equal(prof.columns.find((c: any) => c.name === 'bucket').max, '6');
});

test('identifiers from URLs are validated: injection attempts get 422 or 404 and change nothing', async () => {
  const hostile = [`orders"; DROP TABLE raw_shop.orders; --`, `orders' OR '1'='1`, 'orders;DELETE', '..%2F..%2Fetc', 'a b'];
  for (const h of hostile) {
    for (const url of [`/api/catalog/shop/${encodeURIComponent(h)}/columns`, `/api/catalog/${encodeURIComponent(h)}/orders/columns`, `/api/catalog/models/${encodeURIComponent(h)}`, `/api/catalog/impact/${encodeURIComponent(h)}`]) {
      const r = await get(url);
      assert.ok([404, 422].includes(r.status), `${url} -> ${r.status}`);
    }
    const p = await app.http.inject({ method: 'POST', url: `/api/catalog/shop/${encodeURIComponent(h)}/profile` });
    assert.ok([404, 422].includes(p.statusCode));
  }
  // a well-formed name that is not a table: 404, never SQL on a guessed relation
  assert.equal((await get('/api/catalog/shop/nope/columns')).status, 404);
  assert.equal((await get('/api/catalog/search?q=%22%3B%20DROP%20TABLE%20x%3B')).status, 200);
  const still = await app.warehouse.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM raw_shop.orders');
  assert.equal(still[0]!.n, 4);
});

test('summary is reduced without governance.view; permissions are enforced per route', async () => {
  const full = await get('/api/catalog/summary');
  assert.equal(full.status, 200);
  assert.equal(full.body.reduced, false);
  const shop = full.body.sources.find((s: any) => s.name === 'shop');
  assert.ok(shop.tables.find((t: any) => t.name === 'orders').columns.some((c: any) => c.name === 'amount'));
  assert.ok(full.body.models.some((m: any) => m.name === 'fct_revenue'));
  assert.deepEqual(full.body.quality.tests, { total: 2, passed: 1, failed: 1, not_run: 0 });

  const reduced = await get('/api/catalog/summary', 'source.view');
  assert.equal(reduced.status, 200);
  assert.equal(reduced.body.reduced, true);
  assert.equal(reduced.body.models, undefined);
  assert.equal(reduced.body.quality, undefined);
  assert.equal(reduced.body.sources.find((s: any) => s.name === 'shop').tables[0].columns, undefined);

  assert.equal((await get('/api/catalog/models', 'source.view')).status, 403);
  assert.equal((await get('/api/catalog/summary', 'tx.view')).status, 403);
});

test('freshness in the summary comes from sync_completed', async () => {
  await app.events.emit('sync_completed' as any, { source: 'shop', sync_id: 's9', rows: 7, tables: [], duration_seconds: 1, trigger: 'api' } as any);
  const s = (await get('/api/catalog/summary')).body.sources.find((x: any) => x.name === 'shop');
  assert.deepEqual(s.freshness, { last_synced_at: '2026-03-02T00:00:00.000Z', age_hours: 0, rows_last_sync: 7 });
});

test('tools are generated from the OpenAPI document and filtered by the caller\'s permissions', async () => {
  const admin = await get('/api/tools');
  assert.equal(admin.status, 200);
  const paths = (b: any[]) => b.map((t) => `${t.method} ${t.path}`);
  assert.ok(paths(admin.body).includes('GET /api/catalog/models/{model_name}'));
  assert.ok(paths(admin.body).includes('POST /api/governance/drift/{source}/accept'));
  const search = admin.body.find((t: any) => t.path === '/api/catalog/search');
  assert.equal(search.permission, 'governance.view');
  assert.equal(search.parameters.query.properties.q.minLength, 2);
  assert.deepEqual(search.parameters.query.required, ['q']);
  assert.match(search.description, /Search names/);

  const viewer = await get('/api/tools', 'source.view');
  assert.ok(paths(viewer.body).includes('GET /api/catalog/summary'));
  assert.ok(!paths(viewer.body).some((p: string) => p.includes('/api/catalog/models') || p.includes('/api/governance/')));
});
