// The appender path of the loader: which batches it takes, and that it types columns as
// read_json would (the JSON path stays for everything else).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { appendBatch, planBatch } from '../src/load/record-batch.js';

test('planBatch: flat batches get kinds; nested, BigInt, mixed, offset times and case twins fall back', () => {
  assert.deepEqual(planBatch([{ id: 1, amount: 1, ok: true, day: '2024-01-01', at: '2024-01-01T00:00:00Z', s: 'x', n: null }, { id: 2, amount: 1.5 }])!.columns, [
    { name: 'id', kind: 'BIGINT' },
    { name: 'amount', kind: 'DOUBLE' },
    { name: 'ok', kind: 'BOOLEAN' },
    { name: 'day', kind: 'DATE' },
    { name: 'at', kind: 'TIMESTAMP' },
    { name: 's', kind: 'VARCHAR' },
    { name: 'n', kind: 'VARCHAR' },
  ]);
  assert.equal(planBatch([{ a: { b: 1 } }]), null);
  assert.equal(planBatch([{ a: [1] }]), null);
  assert.equal(planBatch([{ a: 2n ** 60n }]), null);
  assert.equal(planBatch([{ a: 1 }, { a: 'x' }]), null);
  assert.equal(planBatch([{ a: '2024-01-01T10:00:00+02:00' }]), null);
  assert.equal(planBatch([{ Id: 1, id: 2 }]), null);
  assert.equal(planBatch([{}]), null);
});

test('appendBatch: values arrive exactly; a date column with an impossible date stays text', async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const recs = [
    { id: 9007199254740991, amount: 0.1, ok: false, day: '2024-02-29', at: '2024-01-01T10:00:00.123456Z', s: 'a "quoted", line\nbreak', bad: '2024-02-30' },
    { id: 2, s: null },
  ];
  const plan = planBatch(recs)!;
  const select = await appendBatch(c, 'tmp', plan, recs);
  const rows = (await c.runAndReadAll(`SELECT ${select} FROM temp.main.tmp`)).getRowObjectsJson();
  const types = (await c.runAndReadAll(`DESCRIBE SELECT ${select} FROM temp.main.tmp`)).getRowObjectsJson().map((x) => `${x.column_name}:${x.column_type}`);
  assert.deepEqual(types, ['id:BIGINT', 'amount:DOUBLE', 'ok:BOOLEAN', 'day:DATE', 'at:TIMESTAMP', 's:VARCHAR', 'bad:VARCHAR']);
  assert.deepEqual(rows[0], { id: '9007199254740991', amount: 0.1, ok: false, day: '2024-02-29', at: '2024-01-01 10:00:00.123456', s: 'a "quoted", line\nbreak', bad: '2024-02-30' });
  assert.deepEqual(rows[1], { id: '2', amount: null, ok: null, day: null, at: null, s: null, bad: null });
  c.closeSync();
});

test('appendBatch: strings inline (ASCII, up to 12 bytes) and not, across chunks, arrive exactly', async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const samples = ['', 'a', 'twelve bytes', 'thirteen byte', 'héllo', '😀', 'x'.repeat(40), null, 'tab\tnul\u0000', 'line\nbreak'];
  const recs = Array.from({ length: 5000 }, (_, i) => ({ i, s: samples[i % samples.length] ?? null }));
  const plan = planBatch(recs)!;
  const select = await appendBatch(c, 'tmp', plan, recs);
  const rows = (await c.runAndReadAll(`SELECT ${select} FROM temp.main.tmp ORDER BY i`)).getRowObjectsJson();
  assert.equal(rows.length, recs.length);
  rows.forEach((r, i) => assert.equal(r.s, recs[i]!.s, `row ${i}`));
  const [lengths] = (await c.runAndReadAll(`SELECT count(*) FILTER (WHERE s = 'twelve bytes'), count(*) FILTER (WHERE s IS NULL), max(strlen(s)), count(DISTINCT s) FROM temp.main.tmp`)).getRows();
  assert.deepEqual(lengths!.map(Number), [500, 500, 40, 9]);
  c.closeSync();
});
