import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { colourEnabled, painter, renderTable, toCsv } from '../src/index.js';

const tty = (columns = 80) => Object.assign(new PassThrough(), { isTTY: true, columns });

test('colour only on a terminal, never with NO_COLOR or TERM=dumb', () => {
  assert.equal(colourEnabled(tty(), {}), true);
  assert.equal(colourEnabled(new PassThrough(), {}), false);
  assert.equal(colourEnabled(tty(), { NO_COLOR: '' }), false, 'NO_COLOR set, even empty');
  assert.equal(colourEnabled(tty(), { NO_COLOR: '1' }), false);
  assert.equal(colourEnabled(tty(), { TERM: 'dumb' }), false);
  assert.equal(painter(tty(), {}).red('x'), '\x1b[31mx\x1b[0m');
  assert.equal(painter(tty(), { NO_COLOR: '1' }).red('x'), 'x');
});

test('tables fit the width: the widest columns are cut with an ellipsis, every column stays', () => {
  const rows = [{ name: 'a'.repeat(60), type: 'local_files', note: 'b'.repeat(50) }, { name: 'short', type: 'csv', note: null }];
  const t = renderTable(rows, ['name', 'type', 'note'], 60);
  for (const line of t.split('\n')) assert.ok(line.length <= 60, `${line.length}: ${line}`);
  assert.match(t, /^NAME\s+TYPE\s+NOTE/);
  assert.match(t, /a+…\s+local_files\s+b+…/);
  assert.match(renderTable(rows, ['type'], 60), /^TYPE\nlocal_files\ncsv$/);
});

test('CSV quotes commas, quotes and line breaks (RFC 4180)', () => {
  assert.equal(toCsv(['a', 'b'], [[1, 'x,"y"'], [null, 'l1\nl2']]), 'a,b\r\n1,"x,""y"""\r\n,"l1\nl2"\r\n');
});
