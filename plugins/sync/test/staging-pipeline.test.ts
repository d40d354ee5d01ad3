// Record batches load in the background while the source reads on (issue 16): one batch in
// flight at most, its error surfaces at the next add or flush, and discard waits for it.
import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ident, Warehouse } from '@basin/core';
import { StagingLoad } from '../src/load/staging.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-staging-pipeline-'));
const hooks = { warn() {}, info() {}, progress() {} };
// narrow records: a batch is one DuckDB row group
const BATCH = 122_880;

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `item ${from + i}`, at: '2026-01-02T03:04:05Z' }));

async function open(name: string, progress: number[] = []): Promise<{ wh: Warehouse; st: StagingLoad }> {
  const wh = new Warehouse({ dbPath: path.join(dir, `${name}.db`), servingPath: path.join(dir, `${name}-serving.db`) });
  await wh.open();
  const st = new StagingLoad(wh, 'raw_t', crypto.randomUUID(), new Date('2026-01-01T00:00:00Z'), path.join(dir, `${name}-tmp`), [{ name: 'items' }], new AbortController().signal, { ...hooks, progress: (_r, rows) => progress.push(rows) });
  return { wh, st };
}

after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a full batch loads while the source goes on; flush waits for it; every row arrives once, typed', async () => {
  const { wh, st } = await open('ok');
  await st.add({ kind: 'records', resource: 'items', records: rows(1, BATCH) });
  // add returned with the batch still loading: the source reads its next page meanwhile
  assert.equal(st.rowsLoaded, 0);
  await st.add({ kind: 'records', resource: 'items', records: rows(BATCH + 1, BATCH) });
  await st.add({ kind: 'records', resource: 'items', records: rows(2 * BATCH + 1, 10) });
  await st.flush();
  assert.equal(st.rowsLoaded, 2 * BATCH + 10);
  const staging = st.resources.get('items')!.staging;
  const [row] = await wh.query<{ n: bigint; d: bigint; lo: bigint; hi: bigint }>(`SELECT count(*) AS n, count(DISTINCT id) AS d, min(id) AS lo, max(id) AS hi FROM raw_t.${ident(staging)}`);
  assert.deepEqual([Number(row!.n), Number(row!.d), Number(row!.lo), Number(row!.hi)], [2 * BATCH + 10, 2 * BATCH + 10, 1, 2 * BATCH + 10]);
  assert.deepEqual([...st.resources.get('items')!.columns].slice(0, 3), [['id', 'BIGINT'], ['name', 'VARCHAR'], ['at', 'TIMESTAMP']]);
  await st.discard();
  await wh.close();
});

test('a batch that fails to load in the background fails the next flush; discard still cleans up', async () => {
  const { wh, st } = await open('fail');
  await st.add({ kind: 'records', resource: 'items', records: rows(1, BATCH) });
  const staging = st.resources.get('items')!.staging;
  // queued behind the first batch's load (writes run in order): the second batch finds no staging table
  void wh.write(async (c) => void (await c.run(`DROP TABLE raw_t.${ident(staging)}`)), { staging: true });
  await st.add({ kind: 'records', resource: 'items', records: rows(BATCH + 1, BATCH) });
  await assert.rejects(st.flush(), /does not exist|not exist/i);
  await st.discard(true);
  const left = await wh.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'raw_t'`);
  assert.deepEqual(left, []);
  await wh.close();
});

test('a batch filling for 5 s loads without being full (a slow source still shows progress)', async () => {
  const progress: number[] = [];
  const { wh, st } = await open('slow', progress);
  const realNow = Date.now;
  try {
    const t0 = realNow();
    Date.now = () => t0;
    await st.add({ kind: 'records', resource: 'items', records: rows(1, 10) });
    Date.now = () => t0 + 5_001;
    await st.add({ kind: 'records', resource: 'items', records: rows(11, 10) });
  } finally {
    Date.now = realNow;
  }
  await st.add({ kind: 'records', resource: 'items', records: rows(21, 5) });
  await st.flush();
  // the 20 rows of the first 5 s loaded on their own, then the rest at the flush
  assert.deepEqual(progress, [20, 25]);
  await st.discard();
  await wh.close();
});
