// sql_database through the real sync engine into DuckDB: typed raw tables, merge on the primary key
// for incremental tables, replace for full ones; a type declared without its runtime fails with
// not_implemented.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import sourcesPlugin, { loadSourceRegistry } from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { declareSource, Type } from '@basin/sdk';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { killScenario } from './kill-fixture.js';
import { READER, shopServer } from './pg-fixture.js';

// a manifest without its runtime (every shipped type has one now), registered for this file only
const registry = await loadSourceRegistry();
if (!registry.get('test_manifest_only')) {
  registry.add(declareSource({ type: 'test_manifest_only', category: 'database', authKind: 'basic', wizard: false, configKey: 'generic', configSchema: Type.Object({}, { additionalProperties: true, default: {} }), capabilities: { incremental: false, dateRange: false, customQueries: false } }), 'test');
}

const pg = await shopServer();
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  await pg.stop();
});

pg.psql(
  `CREATE TABLE customers (id int PRIMARY KEY, name text);
   INSERT INTO customers SELECT g, 'customer ' || g FROM generate_series(1, 10) g;
   CREATE TABLE orders (id bigint PRIMARY KEY, amount numeric(12,2), meta jsonb, updated_at timestamptz NOT NULL);
   INSERT INTO orders VALUES (1, 10.50, '{"channel": "web"}', '2024-01-01 10:00:00+00'), (2, 20.00, NULL, '2024-01-02 10:00:00+00'), (3, 30.25, '{"channel": "shop"}', '2024-01-03 10:00:00+00');`,
  'shop',
);

const SOURCES = `version: "1.0"
sources:
  - name: shop_db
    type: sql_database
    sql_database:
      connection_url_env: SHOP_URL
      tables: [orders, customers]
      incremental:
        orders: updated_at
  - name: docs
    type: test_manifest_only
    generic_config: {}
`;

async function boot(sourcesYml: string): Promise<{ app: BasinApp; engine: SyncEngine }> {
  const dir = makeProject({ '.basin/sources.yml': sourcesYml, '.env': `SHOP_URL=${pg.urlFor(READER.user, READER.password, 'shop')}\n` });
  disableAuth(dir);
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  return { app, engine: app.container.resolve<SyncEngine>('syncEngine') };
}

test('full and incremental syncs from PostgreSQL land typed in raw_<source>; re-syncs merge and replace', async () => {
  const { app, engine } = await boot(SOURCES);
  const first = await engine.run('shop_db', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  assert.deepEqual(first.tables.map((t) => [t.name, t.rows]).sort(), [['customers', 10], ['orders', 3]]);
  const types = await app.warehouse.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'raw_shop_db' AND table_name = 'orders' ORDER BY ordinal_position`);
  assert.deepEqual(types.slice(0, 4), [
    { column_name: 'id', data_type: 'BIGINT' },
    { column_name: 'amount', data_type: 'DECIMAL(12,2)' },
    { column_name: 'meta', data_type: 'JSON' },
    { column_name: 'updated_at', data_type: 'TIMESTAMP WITH TIME ZONE' },
  ]);

  pg.psql(`INSERT INTO orders VALUES (4, 40, NULL, '2024-01-04 10:00:00+00'); UPDATE orders SET amount = 99.99, updated_at = '2024-01-05 10:00:00+00' WHERE id = 1;`, 'shop');
  const second = await engine.run('shop_db', { trigger: 'cli' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  const orders = await app.warehouse.query(`SELECT id::INT AS id, amount::VARCHAR AS amount, meta->>'$.channel' AS channel FROM raw_shop_db.orders ORDER BY id`);
  assert.deepEqual(orders, [
    { id: 1, amount: '99.99', channel: 'web' },
    { id: 2, amount: '20.00', channel: null },
    { id: 3, amount: '30.25', channel: 'shop' },
    { id: 4, amount: '40.00', channel: null },
  ]);
  assert.equal(second.tables.find((t) => t.name === 'orders')?.rows, 2, 'only the new and the updated order were read');
  const customers = await app.warehouse.query('SELECT count(*)::INT AS n FROM raw_shop_db.customers');
  assert.deepEqual(customers, [{ n: 10 }], 'the full table is replaced, not appended');
});

test('a sync of a type whose runtime is not implemented fails with not_implemented naming it', async () => {
  const { engine } = await boot(SOURCES);
  const rec = await engine.run('docs', { trigger: 'cli' });
  assert.equal(rec.status, 'failed');
  assert.match(rec.error ?? '', /"test_manifest_only".*not implemented/);
});

test('a sql_database block that fails its schema stops start-up naming the field', async () => {
  await assert.rejects(boot(SOURCES.replace('tables: [orders, customers]', 'tabels: [orders]')), /tabels[\s\S]*did you mean tables/);
  await assert.rejects(boot(SOURCES.replace('incremental:', 'chunk_sise: 1000\n      incremental:')), /sql_database\.chunk_sise: unknown key "chunk_sise"; did you mean chunk_size/);
  await assert.rejects(boot(SOURCES.replace('incremental:', 'chunk_size: 0\n      incremental:')), /sql_database\.chunk_size/);
});

test('postgres: a SIGKILL mid-sync keeps the previous tables and cursors; the next sync loses and repeats no row', async () => {
  pg.psql('CREATE TABLE kill_a (id bigint PRIMARY KEY, note varchar); CREATE TABLE kill_b (id bigint PRIMARY KEY, note varchar);', 'shop');
  await killScenario({
    block: '      connection_url_env: SHOP_URL',
    env: `SHOP_URL=${pg.urlFor(READER.user, READER.password, 'shop')}\n`,
    insert: (t, from, to) => void pg.psql(`INSERT INTO ${t} SELECT g, 'n' || g FROM generate_series(${from}, ${to}) g`, 'shop'),
  });
});
