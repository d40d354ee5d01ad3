// Trino has no multi-table transaction: a swap is made all-or-nothing by its write-ahead intent.
// A resource that fails after another one swapped puts the first back at its snapshot; a process
// killed between the swaps and the commit marker is rolled back by dropStaleStaging at the next start.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { WarehouseClient } from '@basin/core';
import { tempDir } from '@basin/test';
import { trinoUnderTest } from '../../../test/support/trino-warehouse.js';
import { clientFor, type RunningWarehouse } from '../../../test/support/warehouse-backends.js';

const why = trinoUnderTest.unavailable();
let dir: string;
let running: RunningWarehouse;
let client: WarehouseClient;
const LIMITS = { timeoutMs: 30_000, maxRows: 1000 };

const csv = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
};
const count = async (table: string) => Number((await client.query(`SELECT count(*) FROM ${client.capabilities.qualify('raw_shop', table)}`, LIMITS)).rows[0]![0]);
const stage = (table: string, sync: string, lines: string[], id = 'BIGINT') =>
  client.loadStaged({
    schema: 'raw_shop',
    staging: `_basin_staging__${table}__${sync}`,
    file: { path: csv(`${table}-${sync}.csv`, lines), format: 'csv' },
    columns: [
      { name: 'id', type: id, nullable: false },
      { name: 'label', type: 'VARCHAR', nullable: true },
    ],
  });

before(async () => {
  if (why) return;
  dir = tempDir();
  running = await trinoUnderTest.start(dir);
  client = await clientFor(dir, running);
  await stage('orders', 's1', ['id,label', '1,a', '2,b']);
  await stage('items', 's1', ['id,label', '10,x']);
  await client.swap({
    source: 'shop',
    syncId: 's1',
    resources: [
      { schema: 'raw_shop', table: 'orders', staging: '_basin_staging__orders__s1', disposition: 'replace' },
      { schema: 'raw_shop', table: 'items', staging: '_basin_staging__items__s1', disposition: 'replace' },
    ],
    cursor: { n: 1 },
  });
});
after(async () => {
  await client?.close();
});

test('a resource failing after another swapped puts the first back; cursor and marker unchanged', { skip: why ?? false }, async () => {
  await stage('orders', 's2', ['id,label', '3,c']);
  // ids that are not numbers cannot go into the bigint column: the second resource fails in Trino
  await stage('items', 's2', ['id,label', 'not-a-number,y'], 'VARCHAR');
  await assert.rejects(
    client.swap({
      source: 'shop',
      syncId: 's2',
      resources: [
        { schema: 'raw_shop', table: 'orders', staging: '_basin_staging__orders__s2', disposition: 'append' },
        { schema: 'raw_shop', table: 'items', staging: '_basin_staging__items__s2', disposition: 'append' },
      ],
      cursor: { n: 2 },
    }),
  );
  assert.equal(await count('orders'), 2, 'the appended order was rolled back');
  assert.equal(await count('items'), 1);
  assert.deepEqual(await client.cursorState('shop'), { n: 1 });
  assert.equal((await client.committedSyncs(['s2'])).size, 0);
  assert.equal(await client.dropStaleStaging(), 2);
});

test('a swap killed before its commit marker is rolled back at the next start', { skip: why ?? false }, async () => {
  // what a process killed mid-swap leaves: its intent (the snapshots before), a table already changed
  // (a new row, and a table the swap created), and no commit marker
  const meta = (t: string) => `"lake"."${String(running.section.schema_prefix)}_basin_meta"."${t}"`;
  const orders = client.capabilities.qualify('raw_shop', 'orders');
  const snap = (await client.query(`SELECT CAST(snapshot_id AS varchar) FROM ${client.capabilities.qualify('raw_shop', 'orders$refs')} WHERE name = 'main'`, LIMITS)).rows[0]![0];
  await client.execute(
    `INSERT INTO ${meta('swap_intents')} VALUES ('s3', 'shop', 'raw_shop', 'orders', CAST(${String(snap)} AS bigint), current_timestamp), ('s3', 'shop', 'raw_shop', 'fresh', CAST(NULL AS bigint), current_timestamp)`,
  );
  await client.execute(`INSERT INTO ${orders} VALUES (99, 'half-swapped')`);
  await client.execute(`CREATE TABLE ${client.capabilities.qualify('raw_shop', 'fresh')} AS SELECT 1 AS id`);
  assert.equal(await count('orders'), 3);

  await client.close();
  client = await clientFor(dir, running); // the next start
  assert.equal(await client.dropStaleStaging(), 0);
  assert.equal(await count('orders'), 2, 'back at the snapshot the intent recorded');
  assert.equal(await client.describeTable('raw_shop', 'fresh'), null, 'a table the swap created is dropped');
  assert.deepEqual(await client.cursorState('shop'), { n: 1 });
});
