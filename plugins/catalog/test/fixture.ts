import fs from 'node:fs';
import path from 'node:path';
import type { BasinApp } from '@basin/core';

/**
 * A small dbt project's warehouse and artifacts with the real dbt manifest structure:
 * raw_shop.{orders,customers} → stg_shop__orders, stg_shop__customers → int_orders_enriched →
 * fct_revenue and dim_customers (fct also reads stg_shop__customers directly: a diamond).
 */
export async function seedWarehouse(app: BasinApp): Promise<void> {
  await app.warehouse.write(async (c) => {
    await c.run(`CREATE SCHEMA raw_shop;
      CREATE TABLE raw_shop.orders (id INTEGER, customer_id INTEGER, amount DOUBLE, status VARCHAR, _basin_load_id VARCHAR);
      INSERT INTO raw_shop.orders VALUES (1, 10, 20.0, 'paid', 'l'), (2, 10, 5.5, 'paid', 'l'), (3, 11, NULL, 'refunded', 'l'), (4, 12, 100.25, NULL, 'l');
      CREATE TABLE raw_shop.customers (id INTEGER, email VARCHAR, country VARCHAR);
      INSERT INTO raw_shop.customers VALUES (10, 'a@example.com', 'DE'), (11, 'b@example.com', 'FR'), (12, NULL, 'DE');
      CREATE VIEW main.stg_shop__orders AS SELECT id AS order_id, customer_id, amount, status FROM raw_shop.orders;
      CREATE VIEW main.stg_shop__customers AS SELECT id AS customer_id, country FROM raw_shop.customers;
      CREATE TABLE main.int_orders_enriched AS SELECT o.order_id, o.amount, c.country FROM main.stg_shop__orders o JOIN main.stg_shop__customers c ON o.customer_id = c.customer_id;
      CREATE TABLE main.fct_revenue AS SELECT country, sum(amount) AS revenue FROM main.int_orders_enriched GROUP BY country;
      CREATE TABLE main.dim_customers AS SELECT customer_id, country FROM main.stg_shop__customers;`);
  });
}

const model = (name: string, dir: string, raw: string, compiled: string, deps: string[], columns: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  [`model.shop_analytics.${name}`]: {
    database: 'warehouse',
    schema: 'main',
    name,
    resource_type: 'model',
    package_name: 'shop_analytics',
    path: `${dir}/${name}.sql`,
    original_file_path: `models/${dir}/${name}.sql`,
    unique_id: `model.shop_analytics.${name}`,
    fqn: ['shop_analytics', dir, name],
    alias: name,
    checksum: { name: 'sha256', checksum: 'x' },
    config: { enabled: true, materialized: name.startsWith('stg_') ? 'view' : 'table', tags: [] },
    tags: (extra.tags as string[]) ?? [],
    description: (extra.description as string) ?? '',
    columns: Object.fromEntries(Object.entries(columns).map(([c, d]) => [c, { name: c, description: d, meta: {}, data_type: null, constraints: [], quote: null, tags: [] }])),
    meta: {},
    raw_code: raw,
    compiled_code: compiled,
    language: 'sql',
    refs: [],
    sources: [],
    depends_on: { macros: [], nodes: deps },
    compiled: true,
  },
});

const test = (name: string, kind: string, modelName: string, column: string) => ({
  [`test.shop_analytics.${name}.abc123`]: {
    database: 'warehouse',
    schema: 'main_dbt_test__audit',
    name,
    resource_type: 'test',
    package_name: 'shop_analytics',
    unique_id: `test.shop_analytics.${name}.abc123`,
    test_metadata: { name: kind, kwargs: { column_name: column, model: `{{ get_where_subquery(ref('${modelName}')) }}` }, namespace: null },
    column_name: column,
    attached_node: `model.shop_analytics.${modelName}`,
    depends_on: { macros: [`macro.dbt.test_${kind}`], nodes: [`model.shop_analytics.${modelName}`] },
    raw_code: `{{ test_${kind}(**_dbt_generic_test_kwargs) }}`,
  },
});

export function writeArtifacts(projectDir: string): void {
  const target = path.join(projectDir, 'tx', 'target');
  fs.mkdirSync(target, { recursive: true });
  const manifest = {
    metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json', dbt_version: '1.9.0', generated_at: '2026-03-01T00:00:00Z', project_name: 'shop_analytics' },
    nodes: {
      ...model(
        'stg_shop__orders',
        'staging',
        "select id as order_id, customer_id, amount, status from {{ source('shop', 'orders') }}",
        'select id as order_id, customer_id, amount, status from "warehouse"."raw_shop"."orders"',
        ['source.shop_analytics.shop.orders'],
        { order_id: 'One row per order', amount: 'Order total in EUR' },
        { description: 'Orders, renamed', tags: ['finance'] },
      ),
      ...model(
        'stg_shop__customers',
        'staging',
        "with src as (select * from {{ source('shop', 'customers') }}) select id as customer_id, country from src",
        'with src as (select * from "warehouse"."raw_shop"."customers") select id as customer_id, country from src',
        ['source.shop_analytics.shop.customers'],
        { customer_id: 'Customer key' },
      ),
      ...model(
        'int_orders_enriched',
        'intermediate',
        "select o.order_id, o.amount, c.country from {{ ref('stg_shop__orders') }} o join {{ ref('stg_shop__customers') }} c on o.customer_id = c.customer_id",
        'select o.order_id, o.amount, c.country from "warehouse"."main"."stg_shop__orders" o join "warehouse"."main"."stg_shop__customers" c on o.customer_id = c.customer_id',
        ['model.shop_analytics.stg_shop__orders', 'model.shop_analytics.stg_shop__customers'],
      ),
      ...model(
        'fct_revenue',
        'marts',
        "select e.country, sum(e.amount) as revenue from {{ ref('int_orders_enriched') }} e join {{ ref('stg_shop__customers') }} c on c.country = e.country group by 1",
        'select e.country, sum(e.amount) as revenue from "warehouse"."main"."int_orders_enriched" e join "warehouse"."main"."stg_shop__customers" c on c.country = e.country group by 1',
        ['model.shop_analytics.int_orders_enriched', 'model.shop_analytics.stg_shop__customers'],
        { revenue: 'Revenue per country in EUR' },
        { description: 'Revenue by country for the finance dashboard' },
      ),
      ...model(
        'dim_customers',
        'marts',
        "select * from {{ ref('stg_shop__customers') }}",
        'select * from "warehouse"."main"."stg_shop__customers"',
        ['model.shop_analytics.stg_shop__customers'],
      ),
      ...test('not_null_stg_shop__orders_order_id', 'not_null', 'stg_shop__orders', 'order_id'),
      ...test('unique_stg_shop__orders_order_id', 'unique', 'stg_shop__orders', 'order_id'),
    },
    sources: {
      'source.shop_analytics.shop.orders': { database: 'warehouse', schema: 'raw_shop', name: 'orders', resource_type: 'source', package_name: 'shop_analytics', unique_id: 'source.shop_analytics.shop.orders', source_name: 'shop', identifier: 'orders', description: 'Orders loaded from the shop', columns: {}, tags: [] },
      'source.shop_analytics.shop.customers': { database: 'warehouse', schema: 'raw_shop', name: 'customers', resource_type: 'source', package_name: 'shop_analytics', unique_id: 'source.shop_analytics.shop.customers', source_name: 'shop', identifier: 'customers', description: '', columns: {}, tags: [] },
    },
    macros: {},
    exposures: {},
    metrics: {},
    parent_map: {},
    child_map: {},
  };
  fs.writeFileSync(path.join(target, 'manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(
    path.join(target, 'run_results.json'),
    JSON.stringify({ metadata: { generated_at: '2026-03-01T00:00:00Z' }, results: [{ unique_id: 'test.shop_analytics.not_null_stg_shop__orders_order_id.abc123', status: 'pass', failures: 0 }, { unique_id: 'test.shop_analytics.unique_stg_shop__orders_order_id.abc123', status: 'fail', failures: 1 }] }),
  );
}
