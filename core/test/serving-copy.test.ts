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

async function servingRows(w: Warehouse, sql: string): Promise<unknown[]> {
  const r = await Warehouse.openReadOnly(w.servingPath);
  const c = await r.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    c.closeSync();
    r.closeSync();
  }
}

test('the serving copy is a byte copy after a checkpoint and holds every committed write, even with a reader mid-transaction', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-serving-'));
  const w = new Warehouse({ dbPath: path.join(dir, 'warehouse.db'), servingPath: path.join(dir, 'serving.db') });
  await w.open();
  try {
    await w.write((c) => c.run('CREATE TABLE t AS SELECT range AS a FROM range(50000)'));
    // a reader holding a transaction open must neither block the publish nor see it change
    await w.read(async (reader) => {
      await reader.run('BEGIN');
      await reader.runAndReadAll('SELECT count(*) FROM t');
      await w.write((c) => c.run('INSERT INTO t SELECT range FROM range(7)'));
      await w.publishServingCopy();
      assert.deepEqual((await reader.runAndReadAll('SELECT count(*)::INT AS n FROM t')).getRowObjectsJson(), [{ n: 50000 }]);
      await reader.run('COMMIT');
    });
    assert.equal(w.lastPublishMode, 'file_copy');
    assert.deepEqual(await servingRows(w, 'SELECT count(*)::INT AS n FROM t'), [{ n: 50007 }]);
  } finally {
    await w.close();
  }
});

test('when the checkpoint leaves a WAL behind, the serving copy falls back to a logical copy with the same contents', async () => {
  class WalNotEmpty extends Warehouse {
    protected override walBytes(): number {
      return 1;
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-serving-'));
  const w = new WalNotEmpty({ dbPath: path.join(dir, 'warehouse.db'), servingPath: path.join(dir, 'serving.db') });
  await w.open();
  try {
    await w.write((c) => c.run(`CREATE SCHEMA s; CREATE TABLE s.t AS SELECT range AS a FROM range(1000); CREATE VIEW s.v AS SELECT sum(a)::BIGINT AS total FROM "warehouse"."s"."t"`));
    await w.publishServingCopy();
    assert.equal(w.lastPublishMode, 'logical_copy');
    assert.deepEqual(await servingRows(w, 'SELECT total FROM s.v'), [{ total: '499500' }]);
  } finally {
    await w.close();
  }
});
