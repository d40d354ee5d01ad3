import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import source from '../src/index.js';

const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-fs-data-'));
fs.writeFileSync(path.join(outside, 'a.csv'), 'id\n1\n');
const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-fs-project-'));

runSourceContract(source, { bucket_url: pathToFileURL(outside).href, file_glob: '*.csv' }, {
  name: 'lake',
  projectDir,
  failingConfig: { bucket_url: 's3://bucket/prefix' },
  addData: () => fs.writeFileSync(path.join(outside, 'b.csv'), 'id\n2\n'),
});

test('filesystem: absolute paths outside the project are allowed and their ids stay absolute', async () => {
  const ctx = createTestContext(source, { bucket_url: outside }, { name: 'lake', projectDir });
  const r = await collectRead(source, ctx, [{ name: 'lake' }]);
  assert.ok(r.files.lake!.some((f) => f.sourceFile === path.join(outside, 'a.csv')));
});

test('filesystem: remote schemes fail with not_implemented naming the scheme', async () => {
  const ctx = createTestContext(source, { bucket_url: 'gs://bucket/x' }, { name: 'lake', projectDir });
  await assert.rejects(collectRead(source, ctx, [{ name: 'lake' }]), (err: any) => err.code === 'not_implemented' && /gs:\/\//.test(err.message));
  assert.equal(source.wizard, false);
});
