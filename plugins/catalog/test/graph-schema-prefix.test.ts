// On a server warehouse with a schema_prefix, dbt's manifest names the engine's schemas
// (`<prefix>raw_shop`, `<prefix>main`) while the warehouse client lists Basin's (`raw_shop`, `main`):
// the graph maps dbt's names back, so sources join their raw tables and models their warehouse tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildGraph } from '../src/graph.js';
import type { DbtArtifacts } from '../src/artifacts.js';
import type { WarehouseTable } from '../src/warehouse-tables.js';

const table = (schema: string, name: string): WarehouseTable => ({ schema, name, kind: 'table', estimated_rows: 7, columns: [{ name: 'id', type: 'bigint', nullable: false }] });

test('dbt names with the schema prefix join the tables Basin lists without it', () => {
  const artifacts: DbtArtifacts = {
    manifest: {
      nodes: {
        'model.p.stg_shop__orders': { unique_id: 'model.p.stg_shop__orders', resource_type: 'model', name: 'stg_shop__orders', schema: 'wh_main', original_file_path: 'models/staging/shop/stg_shop__orders.sql', depends_on: { nodes: ['source.p.shop.orders'] } },
      },
      sources: { 'source.p.shop.orders': { unique_id: 'source.p.shop.orders', resource_type: 'source', name: 'orders', source_name: 'shop', schema: 'wh_raw_shop' } },
    },
    catalog: null,
    runResults: null,
    problems: [],
  };
  const unprefixed = (s: string) => (s.startsWith('wh_') ? s.slice(3) : s);
  const g = buildGraph(artifacts, [table('raw_shop', 'orders'), table('main', 'stg_shop__orders')], unprefixed);
  const nodes = g.nodes;
  const model = nodes.get('model.p.stg_shop__orders')!;
  assert.equal(model.schema, 'main');
  assert.equal(model.in_warehouse, true);
  const raw = [...nodes.values()].filter((n) => n.kind === 'raw');
  assert.equal(raw.length, 1, 'the dbt source and the raw table are one node');
  assert.equal(raw[0]!.schema, 'raw_shop');
  assert.equal(raw[0]!.in_warehouse, true);
  // without the mapping (DuckDB), the same names would not have joined
  const plain = buildGraph(artifacts, [table('raw_shop', 'orders'), table('main', 'stg_shop__orders')]);
  assert.equal(plain.nodes.get('model.p.stg_shop__orders')!.in_warehouse, false);
});
