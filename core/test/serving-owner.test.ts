import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Warehouse, type WarehouseOptions } from '../src/index.js';

/** counts publishes: each one checks the WAL once after its checkpoint */
class Counting extends Warehouse {
  publishes = 0;
  protected override walBytes(): number {
    this.publishes++;
    return super.walBytes();
  }
}

const make = (o: Partial<WarehouseOptions> = {}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-owner-'));
  return new Counting({ dbPath: path.join(dir, 'warehouse.db'), servingPath: path.join(dir, 'serving.db'), autoPublish: true, publishDelayMs: 20, ...o });
};

// issue 11 item 3: the warehouse alone publishes the serving copy (coalescing, memory limit, staleness)
test('a write makes the copy stale and the warehouse publishes it; staging writes do not', async () => {
  const w = make();
  await w.open();
  try {
    await w.servingCopySettled();
    const atOpen = w.publishes; // a missing copy is published at open
    assert.equal(atOpen, 1);
    await w.write((c) => c.run('CREATE TABLE t AS SELECT 1 AS a'), { staging: true });
    await new Promise((r) => setTimeout(r, 60));
    await w.servingCopySettled();
    assert.equal(w.publishes, atOpen, 'a staging write changes nothing readers see');
    await w.write((c) => c.run('CREATE TABLE u AS SELECT 2 AS b'));
    assert.equal(w.servingCopyStale, true);
    await w.servingCopyReady(5000);
    assert.equal(w.publishes, atOpen + 1);
    assert.equal(w.servingCopyStale, false);
    const r = await Warehouse.openReadOnly(w.servingPath);
    const c = await r.connect();
    assert.deepEqual((await c.runAndReadAll('SELECT b FROM u')).getRowObjectsJson(), [{ b: 2 }]);
    c.closeSync();
    r.closeSync();
    // a reader asking for a fresh copy of a fresh warehouse starts nothing
    await w.servingCopyReady(100);
    assert.equal(w.publishes, atOpen + 1);
  } finally {
    await w.close();
  }
});

test('a scheduled publish waits while writes are queued or running (a load, then its commit): one copy after them', async () => {
  const w = make();
  await w.open();
  try {
    await w.servingCopySettled();
    const before = w.publishes;
    await w.write((c) => c.run('CREATE TABLE raw AS SELECT 1 AS a')); // stale: a publish is scheduled
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // a long staging write (a load's statement) holds the queue past the publish delay
    const load = w.write(async (c) => {
      await c.run('CREATE TABLE stg AS SELECT range AS a FROM range(1000)');
      await gate;
    }, { staging: true });
    await new Promise((r) => setTimeout(r, 100)); // five publish delays
    assert.equal(w.publishes, before, 'no publish queued behind the running write');
    release();
    await load;
    await w.write((c) => c.run('INSERT INTO raw SELECT a FROM stg')); // the commit
    await w.servingCopyReady(5000);
    await w.servingCopySettled();
    assert.equal(w.publishes, before + 1, 'one copy, after the commit');
    const r = await Warehouse.openReadOnly(w.servingPath);
    const c = await r.connect();
    assert.equal(Number((await c.runAndReadAll('SELECT count(*) FROM raw')).getRows()[0]![0]), 1001);
    c.closeSync();
    r.closeSync();
  } finally {
    await w.close();
  }
});

test('requests coalesce: one publish at a time plus at most one queued for any number of requests', async () => {
  const w = make({ autoPublish: false });
  await w.open();
  try {
    await w.write((c) => c.run('CREATE TABLE t AS SELECT range AS a FROM range(200000)'));
    const before = w.publishes;
    await Promise.all(Array.from({ length: 10 }, () => w.publishServingCopy()));
    assert.ok(w.publishes - before <= 2, `${w.publishes - before} publishes for 10 requests`);
    assert.ok(w.publishes - before >= 1);
  } finally {
    await w.close();
  }
});

test('a request while a publish runs shares it when no write was queued since; after a write, one more follows', async () => {
  const w = make({ autoPublish: false });
  await w.open();
  const servedRows = async () => {
    const r = await Warehouse.openReadOnly(w.servingPath);
    const c = await r.connect();
    try {
      return Number((await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0]![0]);
    } finally {
      c.closeSync();
      r.closeSync();
    }
  };
  try {
    await w.write((c) => c.run('CREATE TABLE t AS SELECT range AS a FROM range(1000)'));
    let before = w.publishes;
    // (a sync's commit schedules a publish, then the sync asks for one itself: the file is copied once)
    const first = w.publishServingCopy();
    const second = w.publishServingCopy();
    await Promise.all([first, second]);
    assert.equal(w.publishes - before, 1);
    assert.equal(w.servingCopyStale, false);
    assert.equal(await servedRows(), 1000);

    before = w.publishes;
    const running = w.publishServingCopy();
    const write = w.write((c) => c.run('INSERT INTO t SELECT range FROM range(500)'));
    const after = w.publishServingCopy();
    await Promise.all([running, write, after]);
    assert.equal(w.publishes - before, 2, 'the write queued behind the running publish gets a publish of its own');
    assert.equal(await servedRows(), 1500);

    // a hand-off (dbt) may write anything: it counts as a write
    before = w.publishes;
    const running2 = w.publishServingCopy();
    const handoff = w.handoff(async () => undefined);
    await Promise.all([running2, handoff, w.publishServingCopy()]);
    assert.equal(w.publishes - before, 2);
  } finally {
    await w.close();
  }
});

test('bounded writes run under the load memory limit and restore the previous one', async () => {
  const w = make({ autoPublish: false });
  await w.open();
  try {
    w.setLoadMemoryLimit(100);
    const setting = (c: Parameters<Parameters<Warehouse['write']>[0]>[0]) => c.runAndReadAll("SELECT current_setting('memory_limit') AS m").then((r) => String(r.getRows()[0]![0]));
    const before = await w.write(setting);
    const inside = await w.write(setting, { bounded: true });
    const after = await w.write(setting);
    assert.match(inside, /^(95\.3 MiB|100\.0 MB|100MB)/);
    assert.notEqual(before, inside);
    // restored (DuckDB prints the limit rounded, so compare the amounts)
    const bytes = (v: string) => Number.parseFloat(v) * ({ KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, MB: 1e6, GB: 1e9 } as Record<string, number>)[v.split(' ')[1] ?? ''];
    assert.ok(Math.abs(bytes(after) - bytes(before)) / bytes(before) < 0.01, `${after} vs ${before}`);
  } finally {
    await w.close();
  }
});

test('the spill folder a killed process left behind is removed at open', async () => {
  const w = make({ autoPublish: false });
  fs.mkdirSync(`${w.dbPath}.tmp`, { recursive: true });
  fs.writeFileSync(path.join(`${w.dbPath}.tmp`, 'duckdb_temp_block-1.block'), 'x');
  await w.open();
  try {
    assert.equal(fs.existsSync(`${w.dbPath}.tmp`), false);
  } finally {
    await w.close();
  }
});

test('publishing on read (basin sync from the shell): writes leave the copy to its first reader, who waits for it in full', async () => {
  const w = make({ publishOnRead: true });
  const tablesIn = async (file: string) => {
    const r = await Warehouse.openReadOnly(file);
    const c = await r.connect();
    try {
      return (await c.runAndReadAll('SELECT table_name FROM duckdb_tables() ORDER BY 1')).getRows().map((x) => x[0]);
    } finally {
      c.closeSync();
      r.closeSync();
    }
  };
  await w.open();
  try {
    await w.write((c) => c.run('CREATE TABLE a AS SELECT 1 AS x'));
    await w.publishServingCopy(); // what a sync asks after its commit
    await new Promise((r) => setTimeout(r, 60));
    await w.servingCopySettled();
    assert.equal(w.publishes, 0, 'no copy at open, after the write or when asked');
    assert.equal(fs.existsSync(w.servingPath), false);
    assert.equal(w.servingCopyStale, true);
    assert.equal(w.needsPublishAtOpen, false, 'such a process does not open the warehouse at boot to publish');
    // a reader in the same process: the copy is made now, and waited for past the reader's patience
    await w.servingCopyReady(1);
    assert.equal(w.publishes, 1);
    assert.deepEqual(await tablesIn(w.servingPath), ['a']);
    await w.write((c) => c.run('CREATE TABLE b AS SELECT 2 AS y'));
    await w.servingCopySettled();
    assert.equal(w.publishes, 1);
  } finally {
    await w.close();
  }
  assert.equal(w.publishes, 1, 'closing publishes nothing');
  // the next process (a server, a query from the shell) finds the copy behind the warehouse file
  const next = new Counting({ dbPath: w.dbPath, servingPath: w.servingPath, autoPublish: true, publishDelayMs: 20 });
  assert.equal(next.needsPublishAtOpen, true);
  try {
    await next.servingCopyReady(1);
    assert.equal(next.publishes, 1);
    assert.deepEqual(await tablesIn(next.servingPath), ['a', 'b']);
  } finally {
    await next.close();
  }
});
