import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Warehouse } from '../src/index.js';

test('views that name the warehouse catalog (as dbt-duckdb writes them) still work in the serving copy', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-serving-'));
  const w = new Warehouse({ dbPath: path.join(dir, 'warehouse.db'), servingPath: path.join(dir, 'serving.db') });
  await w.open();
  try {
    await w.write((c) =>
      c.run(`CREATE SCHEMA raw_s; CREATE TABLE raw_s.t AS SELECT 1 AS a; CREATE SCHEMA stg;
        CREATE VIEW stg.v AS (SELECT a, 'warehouse.kept' AS note FROM "warehouse"."raw_s"."t");
        CREATE VIEW main.v2 AS SELECT a, note FROM warehouse.stg.v;`),
    );
    await w.publishServingCopy();
    const r = await Warehouse.openReadOnly(w.servingPath);
    const c = await r.connect();
    try {
      assert.deepEqual((await c.runAndReadAll('SELECT a, note FROM main.v2')).getRowObjectsJson(), [{ a: 1, note: 'warehouse.kept' }]);
    } finally {
      c.closeSync();
      r.closeSync();
    }
    // the warehouse itself is unchanged and still usable for writes
    assert.deepEqual(await w.query('SELECT a FROM main.v2'), [{ a: 1 }]);
    await w.write((c) => c.run('CREATE TABLE main.after AS SELECT 1 AS x'));
  } finally {
    await w.close();
  }
});
