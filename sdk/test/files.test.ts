import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { detectFormat, formatFromName, globToRegExp, listFiles, sniffBytes, sourceFileId } from '../src/index.js';

test('glob: * and ? stay in one segment, ** crosses, {a,b} and [ab] work, dots are literal', () => {
  const m = (p: string, s: string) => globToRegExp(p).test(s);
  assert.ok(m('*', 'a.csv'));
  assert.ok(!m('*', 'sub/a.csv'));
  assert.ok(m('*.csv', 'sales.csv') && !m('*.csv', 'salescsv') && !m('*.csv', 'sales.csv.bak'));
  assert.ok(m('**/*.csv', 'a.csv') && m('**/*.csv', 'x/y/a.csv'));
  assert.ok(m('2024-??.json', '2024-01.json') && !m('2024-??.json', '2024-1.json'));
  assert.ok(m('*.{csv,parquet}', 'a.parquet') && !m('*.{csv,parquet}', 'a.json'));
  assert.ok(m('[ab]*.csv', 'b1.csv') && !m('[!ab]*.csv', 'b1.csv'));
  assert.ok(m('exports/*.csv', 'exports/a.csv') && !m('exports/*.csv', 'other/a.csv'));
});

test('format from name: extensions, compression suffixes, unknowns', () => {
  assert.equal(formatFromName('a.CSV'), 'csv');
  assert.equal(formatFromName('a.tsv'), 'csv');
  assert.equal(formatFromName('a.ndjson'), 'json');
  assert.equal(formatFromName('a.jsonl.gz'), 'json');
  assert.equal(formatFromName('a.pq'), 'parquet');
  assert.equal(formatFromName('a.gz'), null);
  assert.equal(formatFromName('README'), null);
  assert.equal(formatFromName('a.xlsx'), null);
});

test('sniffing: parquet magic, JSON after BOM and whitespace, CSV text, binary, empty', () => {
  assert.equal(sniffBytes(Buffer.from('PAR1....')), 'parquet');
  assert.equal(sniffBytes(Buffer.from('\ufeff  \n [{"a":1}]')), 'json');
  assert.equal(sniffBytes(Buffer.from('{"a":1}\n{"a":2}\n')), 'json');
  assert.equal(sniffBytes(Buffer.from('a,b\n1,2\n')), 'csv');
  assert.equal(sniffBytes(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01])), 'binary');
  assert.equal(sniffBytes(Buffer.from(' \n\t')), 'empty');
});

test('detectFormat: extension and content must agree', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-sdk-files-'));
  const w = (n: string, c: string | Buffer) => {
    fs.writeFileSync(path.join(dir, n), c);
    return [path.join(dir, n), Buffer.byteLength(c)] as const;
  };
  assert.deepEqual(await detectFormat(...w('a.csv', 'x\n1\n')), { format: 'csv' });
  assert.deepEqual(await detectFormat(...w('b.csv', '[tag],x\n')), { format: 'csv' });
  assert.equal((await detectFormat(...w('c.json', 'x,y\n1,2\n'))).mismatch, true);
  assert.equal((await detectFormat(...w('d.parquet', '{"a":1}'))).mismatch, true);
  assert.equal((await detectFormat(...w('e.csv', Buffer.from([1, 2, 0, 3])))).mismatch, true);
  assert.deepEqual(await detectFormat(...w('f.log', '{"a":1}\n')), { format: 'json' });
  assert.equal((await detectFormat(...w('g.log', 'words\n'))).format, null);
  assert.deepEqual(await detectFormat(...w('h.csv.gz', Buffer.from([0x1f, 0x8b, 0]))), { format: 'csv' });
  assert.equal((await detectFormat(...w('i.csv', ''))).empty, true);
});

test('listFiles: sorted, hidden and partial files skipped, missing directory is a clear error', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-sdk-list-'));
  for (const n of ['b.csv', 'a.csv', '.hidden.csv', 'upload.csv.partial', 'x.tmp', 'old.csv~']) fs.writeFileSync(path.join(dir, n), 'x\n');
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'c.csv'), 'x\n');
  const files = await listFiles(dir, { pattern: '**' });
  assert.deepEqual(files.map((f) => f.relative), ['a.csv', 'b.csv']);
  assert.equal(files[0]!.size, 2);
  await assert.rejects(listFiles(path.join(dir, 'nope')), (err: any) => err.code === 'directory_not_found');
  assert.equal(sourceFileId('/p', '/p/data/a.csv'), 'data/a.csv');
  assert.equal(sourceFileId('/p', '/elsewhere/a.csv'), '/elsewhere/a.csv');
});
