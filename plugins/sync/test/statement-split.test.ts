// Big file groups load in several statements (issue 19: one statement over many big CSVs spilled
// to disk under the load memory limit). Cut apart, the files must land exactly as one statement
// loads them: every row once, the same columns and types, a type widened, each row with its file's id.
import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ident, Warehouse } from '@basin/core';
import { fileId } from '../src/load/file-id.js';
import { splitByBytes, StagingLoad } from '../src/load/staging.js';
import { withEnv } from './support/env.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-statement-split-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const files = {
  'a.csv': 'id,name\n1,one\n2,two\n3,three\n',
  // a column the first file lacks
  'b.csv': 'id,name,extra\n4,four,x\n5,five,y\n',
  // an id that is not a number: the column widens to VARCHAR
  'c.csv': 'id,name\nz6,six\n',
};
const dataDir = path.join(dir, 'data');
fs.mkdirSync(dataDir);
for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dataDir, name), text);

/**
 * loads the three files with the statement size `bytes` and the declare size `declare` (undefined:
 * the defaults, under which these tiny files load by a CTAS); its rows, columns, progress, and what
 * DuckDB stores a varied `_basin_file_id` as in that staging table
 */
async function load(name: string, bytes: string | undefined, declare?: string) {
  const progress: number[] = [];
  const wh = new Warehouse({ dbPath: path.join(dir, `${name}.db`), servingPath: path.join(dir, `${name}-serving.db`) });
  await wh.open();
  const st = new StagingLoad(wh, 'raw_t', crypto.randomUUID(), new Date('2026-01-01T00:00:00Z'), path.join(dir, `${name}-tmp`), [{ name: 'items' }], new AbortController().signal, { warn() {}, info() {}, progress: (_r, rows) => progress.push(rows) });
  await withEnv({ BASIN_SYNC_STATEMENT_BYTES: bytes, BASIN_SYNC_DECLARE_BYTES: declare }, async () => {
    for (const f of Object.keys(files)) await st.add({ kind: 'file', resource: 'items', path: path.join(dataDir, f), format: 'csv', sourceFile: f });
    await st.flush();
  });
  const tbl = `raw_t.${ident(st.resources.get('items')!.staging)}`;
  const rows = await wh.query<Record<string, unknown>>(`SELECT id, name, extra, _basin_file_id, _basin_loaded_at, _basin_sync_id FROM ${tbl} ORDER BY name`);
  const columns = await wh.query<{ column_name: string; column_type: string }>(`SELECT column_name, column_type FROM (DESCRIBE ${tbl})`);
  // rows of many files (ids 1..300,000): bitpacking's case, so DuckDB's own choice shows
  await wh.write(async (c) => {
    await c.run(`INSERT INTO ${tbl} BY NAME SELECT 'n' AS name, range AS _basin_file_id FROM range(1, 300001)`);
    await c.run('CHECKPOINT');
  });
  const stored = await wh.query<{ compression: string }>(`SELECT DISTINCT compression FROM pragma_storage_info('${tbl.replace(/'/g, "''")}') WHERE column_name = '_basin_file_id' AND segment_type <> 'VALIDITY' ORDER BY ALL`);
  await st.discard();
  await wh.close();
  // the sync id differs per load: compared by its form
  for (const r of rows) r._basin_sync_id = /^[0-9a-f-]{36}$/.test(String(r._basin_sync_id));
  return { rows, columns, progress, fileIdStorage: stored.map((s) => s.compression) };
}

test('files over the statement size load in several statements: the rows, columns and types of one statement', async () => {
  const whole = await load('whole', undefined);
  const apart = await load('apart', '1');
  // one statement, one progress report; cut apart: one per file, the running total each time
  assert.deepEqual(whole.progress, [6]);
  assert.deepEqual(apart.progress, [3, 5, 6]);
  assert.deepEqual(apart.rows, whole.rows);
  // a column a later statement brings is added at the end of the staging table (as for a later batch of 500 files)
  const sorted = (cols: typeof whole.columns) => [...cols].sort((a, b) => a.column_name.localeCompare(b.column_name));
  assert.deepEqual(sorted(apart.columns), sorted(whole.columns));
  assert.equal(apart.columns.at(-1)?.column_name, 'extra');
  assert.equal(whole.columns.find((c) => c.column_name === 'id')?.column_type, 'VARCHAR');
  const byName = Object.fromEntries(apart.rows.map((r) => [r.name, r]));
  assert.deepEqual(
    ['one', 'four', 'six'].map((n) => [byName[n]!.id, byName[n]!.extra ?? null, Number(byName[n]!._basin_file_id)]),
    [
      ['1', null, fileId('a.csv')],
      ['4', 'x', fileId('b.csv')],
      ['z6', null, fileId('c.csv')],
    ],
  );
});

test('a big load declares the _basin_* columns RLE-compressed: the same rows, columns and types as a CTAS', async () => {
  const ctas = await load('ctas', undefined);
  const declared = await load('declared', undefined, '1');
  const apart = await load('declared-apart', '1', '1');
  assert.deepEqual(declared.rows, ctas.rows);
  assert.deepEqual(declared.columns, ctas.columns);
  assert.deepEqual(apart.rows, ctas.rows);
  const sorted = (cols: typeof ctas.columns) => [...cols].sort((a, b) => a.column_name.localeCompare(b.column_name));
  assert.deepEqual(sorted(apart.columns), sorted(ctas.columns));
  assert.deepEqual(declared.progress, [6]);
  assert.deepEqual(apart.progress, [3, 5, 6]);
  // left to choose, DuckDB bitpacks ascending ids; declared, the column keeps RLE (and Constant segments, where one value fills them)
  assert.ok(ctas.fileIdStorage.includes('BitPacking'), ctas.fileIdStorage.join());
  assert.ok(!declared.fileIdStorage.includes('BitPacking') && declared.fileIdStorage.includes('RLE'), declared.fileIdStorage.join());
  assert.ok(!apart.fileIdStorage.includes('BitPacking') && apart.fileIdStorage.includes('RLE'), apart.fileIdStorage.join());
});

test('splitByBytes keeps the order, fills each run up to the size, and gives a bigger file a run of its own', () => {
  const sizes = new Map([['a', 300], ['b', 300], ['c', 900], ['d', 100], ['e', 100], ['f', 500]]);
  assert.deepEqual(splitByBytes(['a', 'b', 'c', 'd', 'e', 'f'], sizes, 600), [['a', 'b'], ['c'], ['d', 'e'], ['f']]);
  assert.deepEqual(splitByBytes(['a', 'b'], sizes, 1_000), [['a', 'b']]);
  assert.deepEqual(splitByBytes([], sizes, 1), []);
});
