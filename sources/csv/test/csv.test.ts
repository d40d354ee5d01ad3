import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import source from '../src/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-csv-'));
fs.mkdirSync(path.join(dir, 'exports'));
fs.writeFileSync(path.join(dir, 'exports/a.csv'), 'id\n1\n');
fs.writeFileSync(path.join(dir, 'exports/b.json'), '{"id":2}\n');

runSourceContract(source, { directory: 'exports' }, {
  name: 'legacy',
  projectDir: dir,
  addData: () => fs.writeFileSync(path.join(dir, 'exports/c.csv'), 'id\n3\n'),
});

test('csv: hidden from the wizard and defaults to *.csv', async () => {
  assert.equal(source.wizard, false);
  const ctx = createTestContext(source, { directory: 'exports' }, { name: 'legacy', projectDir: dir, fullRefresh: true });
  assert.equal(ctx.config.file_pattern, '*.csv');
  const r = await collectRead(source, ctx, [{ name: 'legacy' }]);
  assert.ok(r.files.legacy!.every((f) => f.format === 'csv'));
  assert.ok(!r.files.legacy!.some((f) => f.sourceFile === 'exports/b.json'));
});
