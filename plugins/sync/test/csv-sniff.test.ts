// One CSV file read with Basin's own options is sniffed once (issue 19): sniff_csv reports the dialect
// and columns, and the load's DESCRIBE and INSERT read the file with them and `auto_detect=false`.
// The rows, column names and types must be what DuckDB's auto-detecting read_csv gives, for files whose
// dialect the sniffer has to find: CRLF and CR line ends, a comment line, US dates, time zones, a BOM,
// duplicate and empty header names, a header alone, gzip, a tab-separated file.
import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { ident, literal, Warehouse, type Conn } from '@basin/core';
import { StagingLoad } from '../src/load/staging.js';
import { withEnv } from './support/env.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-csv-sniff-'));
const dataDir = path.join(dir, 'data');
fs.mkdirSync(dataDir);

const files: Record<string, string | Buffer> = {
  'crlf.csv': 'id,d,t,name\r\n1,03/15/2024,2024-03-15 10:00:00,"a\r\nb"\r\n2,04/16/2024,2024-03-16 11:00:00,c\r\n',
  'cr.csv': 'a,b\r1,2\r3,4\r',
  'comment.csv': 'a,b\n# a note, not a row\n1,2\n3,4\n',
  'tz.csv': 'ts,n,f\n2024-01-02T03:04:05Z,1.5e3,true\n2024-01-02T03:04:06+02:00,-2,false\n',
  'dotted-dates.csv': 'd\n15.03.2024\n16.03.2024\n',
  'bom-names.csv': '\uFEFFid,dup,dup,,x\n1,2,3,4,\n2,,5,6,\n',
  'header-only.csv': 'a,b\n',
  'quotes-nulls.csv': 'a,b,c\n1,"he said ""hi""",\n2,NULL,007\n',
  'semicolon.csv': 'a;b\n1,5;2\n3,25;x\n',
  'gzipped.csv.gz': zlib.gzipSync('a,b\n1,x\n2,y\n'),
  'tabs.tsv': 'a\tb\n1\tx y\n2\tz\n',
};
for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dataDir, name), body);

/** a warehouse that keeps every statement a write runs, to see which of them sniff */
class RecordingWarehouse extends Warehouse {
  readonly statements: string[] = [];
  override write<T>(fn: (c: Conn) => Promise<T>, opts?: Parameters<Warehouse['write']>[1]): Promise<T> {
    return super.write((c) => {
      const recording = new Proxy(c, {
        get: (target, prop) => {
          const v = Reflect.get(target, prop, target) as unknown;
          if (typeof v !== 'function') return v;
          if (prop === 'run' || prop === 'runAndReadAll') return (sql: string, ...rest: unknown[]) => (this.statements.push(sql), (v as (...a: unknown[]) => unknown).call(target, sql, ...rest));
          return (v as (...a: unknown[]) => unknown).bind(target);
        },
      });
      return fn(recording);
    }, opts);
  }
}

let wh: RecordingWarehouse;
before(async () => {
  wh = new RecordingWarehouse({ dbPath: path.join(dir, 'w.db'), servingPath: path.join(dir, 'w-serving.db') });
  await wh.open();
});
after(async () => {
  await wh.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** loads one file as its own resource; its rows (as JSON) and columns, and the statements that read it */
async function load(name: string, declare: boolean) {
  const start = wh.statements.length;
  const st = new StagingLoad(wh, 'raw_t', crypto.randomUUID(), new Date('2026-01-01T00:00:00Z'), path.join(dir, 'tmp'), [{ name: 'items' }], new AbortController().signal, { warn() {}, info() {}, progress() {} });
  const file = path.join(dataDir, name);
  // '1': the staging table is created from a DESCRIBE, then filled by an INSERT (the path of a big file)
  await withEnv({ BASIN_SYNC_DECLARE_BYTES: declare ? '1' : undefined }, async () => {
    await st.add({ kind: 'file', resource: 'items', path: file, format: 'csv', sourceFile: name, ...(name.endsWith('.tsv') ? { options: { delim: '\t' } } : {}) });
    await st.flush();
  });
  const tbl = `raw_t.${ident(st.resources.get('items')!.staging)}`;
  const columns = await wh.query<{ column_name: string; column_type: string }>(`SELECT column_name, column_type FROM (DESCRIBE ${tbl}) WHERE column_name NOT LIKE '\\_basin\\_%' ESCAPE '\\'`);
  const rows = await rowsJson(tbl, columns);
  await st.discard();
  return { columns, rows, statements: wh.statements.slice(start).filter((s) => /read_csv|sniff_csv/.test(s)) };
}

/** the rows of `from` in `columns`, sorted, as one JSON text (null when there are none) */
async function rowsJson(from: string, columns: Array<{ column_name: string }>): Promise<string> {
  const cols = columns.map((c) => ident(c.column_name));
  const rows = await wh.query<{ j: string }>(`SELECT to_json(list(struct_pack(${cols.map((c) => `${c} := ${c}`).join(', ')}) ORDER BY ${cols.join(', ')}))::VARCHAR AS j FROM ${from}`);
  return rows[0]!.j;
}

/** what DuckDB's auto-detecting read_csv makes of the file, with the options Basin pins */
async function autoDetected(name: string) {
  const delim = name.endsWith('.tsv') ? '\t' : name === 'semicolon.csv' ? ';' : ',';
  const read = `read_csv(${literal(path.join(dataDir, name))}, header=true, skip=0, quote='"', escape='"', strict_mode=true, null_padding=false, delim=${literal(delim)})`;
  const columns = await wh.query<{ column_name: string; column_type: string }>(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM ${read})`);
  return { columns, rows: await rowsJson(read, columns) };
}

for (const declare of [false, true]) {
  test(`one CSV is sniffed once and loads as DuckDB's auto-detection reads it (${declare ? 'declared staging table' : 'CTAS'})`, async () => {
    for (const name of Object.keys(files)) {
      const got = await load(name, declare);
      const want = await autoDetected(name);
      assert.deepEqual(got.columns, want.columns, name);
      assert.equal(got.rows, want.rows, name);
      // one sniff; every read of the file after it binds with the sniffed configuration
      assert.equal(got.statements.filter((s) => s.includes('sniff_csv(')).length, 1, `${name}: ${got.statements.join('\n')}`);
      const reads = got.statements.filter((s) => s.includes('read_csv('));
      assert.equal(reads.length, declare ? 2 : 1, `${name}: ${reads.join('\n')}`);
      for (const s of reads) assert.match(s, /auto_detect=false/, name);
    }
  });
}

test('the sniff keeps what the load depends on: a comment line is skipped, a US date is a DATE, CR-only lines split', async () => {
  const comment = await load('comment.csv', false);
  assert.equal(comment.rows, '[{"a":1,"b":2},{"a":3,"b":4}]');
  const crlf = await load('crlf.csv', false);
  assert.deepEqual(crlf.columns.map((c) => c.column_type), ['BIGINT', 'DATE', 'TIMESTAMP', 'VARCHAR']);
  assert.match(crlf.rows, /"d":"2024-03-15".*"name":"a\\r\\nb"/);
  const cr = await load('cr.csv', false);
  assert.equal(cr.rows, '[{"a":1,"b":2},{"a":3,"b":4}]');
});

test('several files, or a quarantined one, are not sniffed apart: their read auto-detects as before', async () => {
  const start = wh.statements.length;
  const st = new StagingLoad(wh, 'raw_t', crypto.randomUUID(), new Date('2026-01-01T00:00:00Z'), path.join(dir, 'tmp2'), [{ name: 'items' }, { name: 'q' }], new AbortController().signal, { warn() {}, info() {}, progress() {} });
  for (const name of ['cr.csv', 'comment.csv']) await st.add({ kind: 'file', resource: 'items', path: path.join(dataDir, name), format: 'csv', sourceFile: name });
  await st.add({ kind: 'file', resource: 'q', path: path.join(dataDir, 'tz.csv'), format: 'csv', sourceFile: 'tz.csv', malformedRows: 'quarantine' });
  await st.flush();
  const reads = wh.statements.slice(start).filter((s) => /read_csv|sniff_csv/.test(s));
  assert.ok(reads.length >= 2, reads.join('\n'));
  for (const s of reads) {
    assert.doesNotMatch(s, /sniff_csv|auto_detect=false/);
  }
  const rows = await wh.query<{ n: bigint }>(`SELECT count(*) AS n FROM raw_t.${ident(st.resources.get('items')!.staging)}`);
  assert.equal(Number(rows[0]!.n), 4);
  await st.discard();
});
