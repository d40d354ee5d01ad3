import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import source from '../src/index.js';

function project(files: Record<string, string | Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-lf-'));
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

const contractDir = project({ 'data/a.csv': 'id,name\n1,x\n2,y\n', 'data/b.jsonl': '{"id":3,"name":"z"}\n' });
runSourceContract(source, { directory: 'data' }, {
  name: 'files',
  projectDir: contractDir,
  failingConfig: { directory: 'missing_dir' },
  addData: () => fs.writeFileSync(path.join(contractDir, 'data/c.csv'), 'id,name\n4,w\n'),
});

async function read(dir: string, config: Record<string, unknown>, state: Record<string, Record<string, unknown>> = {}, fullRefresh = false) {
  const ctx = createTestContext(source, config, { name: 'files', projectDir: dir, fullRefresh });
  return collectRead(source, ctx, [{ name: 'files' }], state);
}

test('local_files: every matching format becomes a file item of one resource, named after the source', async () => {
  const parquet = Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(16), Buffer.from('PAR1')]);
  const dir = project({ 'in/a.csv': 'x\n1\n', 'in/b.json': '[{"x":2}]', 'in/c.ndjson': '{"x":3}\n', 'in/d.parquet': parquet, 'in/e.tsv': 'x\n4\n', 'in/notes.md': '# hi\n', 'in/.hidden.csv': 'x\n9\n' });
  const r = await read(dir, { directory: 'in' });
  const files = r.files.files!.map((f) => [f.sourceFile, f.format, f.options?.delim ?? null]);
  assert.deepEqual(files, [
    ['in/a.csv', 'csv', null],
    ['in/b.json', 'json', null],
    ['in/c.ndjson', 'json', null],
    ['in/d.parquet', 'parquet', null],
    ['in/e.tsv', 'csv', '\t'],
  ]);
  const tracked = (r.state.files!.files as Array<{ path: string; size: number; mtime: number; hash: string }>).map((f) => f.path);
  assert.deepEqual(tracked, ['in/a.csv', 'in/b.json', 'in/c.ndjson', 'in/d.parquet', 'in/e.tsv']);
  const a = (r.state.files!.files as any[])[0];
  assert.equal(a.size, 4);
  assert.equal(a.hash, '', 'new files are not hashed while they load');
  // an unchanged re-sync loads nothing and hashes nothing
  const again = await read(dir, { directory: 'in' }, r.state);
  assert.equal(again.files.files, undefined);
  assert.equal((again.state.files!.files as any[])[0].hash, '');
});

test('local_files: modified files are forgotten then reloaded, deleted files forgotten, touched files left alone', async () => {
  const dir = project({ 'd/keep.csv': 'x\n1\n', 'd/change.csv': 'x\n2\n', 'd/drop.csv': 'x\n3\n', 'd/touch.csv': 'x\n4\n' });
  const loaded = await read(dir, { directory: 'd' });
  // touch.csv's first touch reloads it and records its hash; the second touch (below) is then compared
  const earlier = new Date(Date.now() + 30_000);
  fs.utimesSync(path.join(dir, 'd/touch.csv'), earlier, earlier);
  const first = await read(dir, { directory: 'd' }, loaded.state);
  assert.deepEqual(first.files.files!.map((f) => f.sourceFile), ['d/touch.csv']);
  fs.writeFileSync(path.join(dir, 'd/change.csv'), 'x\n2\n22\n');
  fs.rmSync(path.join(dir, 'd/drop.csv'));
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(path.join(dir, 'd/touch.csv'), later, later);
  const second = await read(dir, { directory: 'd' }, first.state);
  assert.deepEqual(second.forgotten.files!.sort(), ['d/change.csv', 'd/drop.csv']);
  assert.deepEqual(second.files.files!.map((f) => f.sourceFile), ['d/change.csv']);
  // forget comes before the reload so the engine drops the old rows first
  const kinds = second.items.map((i) => i.kind);
  assert.deepEqual(kinds, ['forget_files', 'file', 'state']);
  const paths = (second.state.files!.files as any[]).map((f) => f.path);
  assert.deepEqual(paths, ['d/change.csv', 'd/keep.csv', 'd/touch.csv']);
  const touched = (second.state.files!.files as any[]).find((f) => f.path === 'd/touch.csv');
  assert.equal(touched.mtime, Math.trunc(fs.statSync(path.join(dir, 'd/touch.csv')).mtimeMs));
});

test('local_files: full refresh reloads everything and forgets what the old state tracked', async () => {
  const dir = project({ 'd/a.csv': 'x\n1\n', 'd/b.csv': 'x\n2\n' });
  const first = await read(dir, { directory: 'd' });
  const again = await read(dir, { directory: 'd' }, first.state, true);
  assert.deepEqual(again.files.files!.map((f) => f.sourceFile), ['d/a.csv', 'd/b.csv']);
  assert.deepEqual(again.forgotten.files!.sort(), ['d/a.csv', 'd/b.csv']);
});

test('local_files: file_pattern filters; `**/` recurses, plain patterns do not', async () => {
  const dir = project({ 'd/a.csv': 'x\n1\n', 'd/a.json': '{"x":1}', 'd/sub/b.csv': 'x\n2\n' });
  assert.deepEqual((await read(dir, { directory: 'd', file_pattern: '*.csv' })).files.files!.map((f) => f.sourceFile), ['d/a.csv']);
  assert.deepEqual((await read(dir, { directory: 'd', file_pattern: '**/*.csv' })).files.files!.map((f) => f.sourceFile), ['d/a.csv', 'd/sub/b.csv']);
  assert.deepEqual((await read(dir, { directory: 'd', file_pattern: '*.{json,parquet}' })).files.files!.map((f) => f.sourceFile), ['d/a.json']);
});

test('local_files: content that contradicts the extension fails naming the file', async () => {
  const dir = project({ 'd/ok.csv': 'x\n1\n', 'd/fake.parquet': 'x,y\n1,2\n' });
  await assert.rejects(read(dir, { directory: 'd' }), (err: any) => err.code === 'file_format_mismatch' && /d\/fake\.parquet/.test(err.message));
  const dir2 = project({ 'd/fake.json': Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(8)]) });
  await assert.rejects(read(dir2, { directory: 'd' }), /d\/fake\.json.*PARQUET/);
});

test('local_files: an unknown extension loads only when the content is clearly JSON or Parquet', async () => {
  const dir = project({ 'd/export.dat': '{"x":1}\n', 'd/readme.txt': 'just words\n', 'd/blob.bin': Buffer.from([1, 0, 2, 0]) });
  const ctx = createTestContext(source, { directory: 'd' }, { name: 'files', projectDir: dir });
  const r = await collectRead(source, ctx, [{ name: 'files' }]);
  assert.deepEqual(r.files.files!.map((f) => [f.sourceFile, f.format]), [['d/export.dat', 'json']]);
  assert.equal(ctx.logs.filter((l) => l.level === 'warn').length, 2);
});

test('local_files: empty files are tracked but not loaded', async () => {
  const dir = project({ 'd/empty.csv': '', 'd/blank.csv': '\n\n' });
  const r = await read(dir, { directory: 'd' });
  assert.equal(r.dataItems, 0);
  assert.deepEqual((r.state.files!.files as any[]).map((f) => f.path), ['d/blank.csv', 'd/empty.csv']);
});

test('local_files: directories outside the project and escaping symlinks are refused', async () => {
  const outside = project({ 'secret.csv': 'x\n1\n' });
  const dir = project({ 'd/a.csv': 'x\n1\n' });
  for (const directory of ['../', '/etc', 'd/../../']) {
    await assert.rejects(read(dir, { directory }), (err: any) => err.code === 'directory_outside_project');
  }
  fs.symlinkSync(outside, path.join(dir, 'link'));
  await assert.rejects(read(dir, { directory: 'link' }), (err: any) => err.code === 'directory_outside_project');
  fs.symlinkSync(path.join(outside, 'secret.csv'), path.join(dir, 'd/escape.csv'));
  fs.symlinkSync(path.join(dir, 'd/a.csv'), path.join(dir, 'd/inner.csv'));
  const r = await read(dir, { directory: 'd' });
  assert.deepEqual(r.files.files!.map((f) => f.sourceFile), ['d/a.csv', 'd/inner.csv']);
});

test('local_files: the config schema requires directory and defaults file_pattern to *', () => {
  assert.throws(() => createTestContext(source, {}), /directory/);
  assert.throws(() => createTestContext(source, { directory: 'd', pattern: '*' }), /config does not match/);
  assert.equal(createTestContext(source, { directory: 'd' }).config.file_pattern, '*');
  assert.equal(source.wizard, true);
});

test('local_files: many files are all tracked; changed ones are hashed when they change', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`many/f${String(i).padStart(3, '0')}.csv`] = `x\n${i}\n`;
  const dir = project(files);
  const r = await read(dir, { directory: 'many' });
  assert.equal(r.files.files!.length, 300);
  assert.equal((r.state.files!.files as unknown[]).length, 300);
  for (let i = 0; i < 300; i += 3) fs.appendFileSync(path.join(dir, `many/f${String(i).padStart(3, '0')}.csv`), `${i}\n`);
  const again = await read(dir, { directory: 'many' }, r.state);
  assert.equal(again.files.files!.length, 100);
  const tracked = again.state.files!.files as Array<{ path: string; hash: string }>;
  assert.equal(tracked.length, 300);
  assert.equal(tracked.filter((f) => /^[0-9a-f]{64}$/.test(f.hash)).length, 100);
});

test('local_files: a file touched before any re-sync (hash still unknown) is reloaded, then tracked by hash', async () => {
  const dir = project({ 'd/t.csv': 'x\n1\n' });
  const loaded = await read(dir, { directory: 'd' });
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(path.join(dir, 'd/t.csv'), later, later);
  const second = await read(dir, { directory: 'd' }, loaded.state);
  assert.deepEqual(second.forgotten.files, ['d/t.csv']);
  assert.deepEqual(second.files.files!.map((f) => f.sourceFile), ['d/t.csv']);
  assert.match((second.state.files!.files as any[])[0].hash, /^[0-9a-f]{64}$/);
});
