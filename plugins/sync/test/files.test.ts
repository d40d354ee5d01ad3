import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileId } from '../src/load/file-id.js';
import { bootSync, rows, type SyncTestApp } from './helpers.js';

const YML = `version: "1.0"\nsources:\n  - name: files\n    type: local_files\n    local_files:\n      directory: data/in\n`;
const write = (t: SyncTestApp, name: string, content: string) => {
  fs.mkdirSync(path.join(t.dir, 'data/in'), { recursive: true });
  fs.writeFileSync(path.join(t.dir, 'data/in', name), content);
};
/** the table's rows with the name of the file each came from (rows carry the file's id) */
const ROWS_WITH_FILES = 'raw_files.files LEFT JOIN raw_files._basin_files AS bf ON bf.file_id = _basin_file_id';
const FILE_OF_ROW = 'bf.source_file';
const count = async (t: SyncTestApp) => Number((await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_files.files'))[0]!.n);

describe('sync engine: file items through the real local_files source', () => {
  const apps: SyncTestApp[] = [];
  after(async () => {
    for (const a of apps) await a.close();
  });

  it('loads many files into one table by name, each row with its file id and _basin_files naming the file; forgets deleted and modified files', async () => {
    const t = await bootSync(YML);
    apps.push(t);
    write(t, 'a.csv', 'id,name\n1,a\n2,b\n');
    write(t, 'b.csv', 'id;name;extra\n3;c;x\n');
    write(t, 'c.jsonl', '{"id": 4, "name": "d"}\n{"id": 5, "name": "e"}\n');
    const r = await t.engine.run('files');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    assert.equal(r.rows, 5);
    const got = await rows(t.app, `SELECT id::INT AS id, name, extra, regexp_extract(${FILE_OF_ROW}, '[^/]+$') AS f FROM ${ROWS_WITH_FILES} ORDER BY id`);
    assert.deepEqual(got, [
      { id: 1, name: 'a', extra: null, f: 'a.csv' },
      { id: 2, name: 'b', extra: null, f: 'a.csv' },
      { id: 3, name: 'c', extra: 'x', f: 'b.csv' },
      { id: 4, name: 'd', extra: null, f: 'c.jsonl' },
      { id: 5, name: 'e', extra: null, f: 'c.jsonl' },
    ]);
    // local_files names files relative to the project; the id is the same function of the name everywhere
    const files = await rows(t.app, 'SELECT source_file AS f, file_id::VARCHAR AS id, table_name AS t, sync_id::VARCHAR AS s FROM raw_files._basin_files ORDER BY 1');
    assert.deepEqual(files, ['data/in/a.csv', 'data/in/b.csv', 'data/in/c.jsonl'].map((f) => ({ f, id: String(fileId(f)), t: 'files', s: r.id })));
    // file loads drop DuckDB's insertion order for their statement only: the instance keeps its setting
    assert.deepEqual(await rows(t.app, "SELECT current_setting('preserve_insertion_order') AS p"), [{ p: true }]);
    // incremental: nothing changed -> nothing loaded
    assert.equal((await t.engine.run('files')).rows, 0);
    // modify one, delete one, add one
    write(t, 'a.csv', 'id,name\n1,a\n2,b\n9,z\n');
    fs.utimesSync(path.join(t.dir, 'data/in/a.csv'), new Date(), new Date(Date.now() + 5000));
    fs.rmSync(path.join(t.dir, 'data/in/b.csv'));
    write(t, 'd.csv', 'id,name\n6,f\n');
    const r3 = await t.engine.run('files');
    assert.equal(r3.status, 'succeeded', r3.error ?? '');
    assert.equal(r3.rows, 4);
    assert.deepEqual((await rows(t.app, 'SELECT list(id::INT ORDER BY id) AS ids FROM raw_files.files'))[0]!.ids, [1, 2, 4, 5, 6, 9]);
    // the reloaded file names this sync, the deleted one is gone, every row still finds its file
    assert.deepEqual(await rows(t.app, 'SELECT source_file AS f, sync_id::VARCHAR AS s FROM raw_files._basin_files ORDER BY 1'), [
      { f: 'data/in/a.csv', s: r3.id },
      { f: 'data/in/c.jsonl', s: r.id },
      { f: 'data/in/d.csv', s: r3.id },
    ]);
    assert.deepEqual(await rows(t.app, `SELECT count(*)::INT AS n FROM ${ROWS_WITH_FILES} WHERE ${FILE_OF_ROW} IS NULL`), [{ n: 0 }]);
    // a full refresh starts the file list afresh
    fs.rmSync(path.join(t.dir, 'data/in/c.jsonl'));
    const r4 = await t.engine.run('files', { fullRefresh: true });
    assert.equal(r4.status, 'succeeded', r4.error ?? '');
    assert.deepEqual(await rows(t.app, 'SELECT source_file AS f, sync_id::VARCHAR AS s FROM raw_files._basin_files ORDER BY 1'), [
      { f: 'data/in/a.csv', s: r4.id },
      { f: 'data/in/d.csv', s: r4.id },
    ]);
  });

  it('a table synced before file ids (a path on every row) moves to the id layout at its next incremental sync', async () => {
    const t = await bootSync(YML);
    apps.push(t);
    write(t, 'a.csv', 'id,name\n1,a\n2,b\n');
    write(t, 'b.csv', 'id,name\n3,c\n');
    const r = await t.engine.run('files');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    // rewrite it as an earlier Basin left it: the path on each row, a VARCHAR sync id, no _basin_files
    await t.app.warehouse.write(async (c) => {
      await c.run(`CREATE TABLE raw_files.old AS SELECT * EXCLUDE (_basin_file_id, _basin_sync_id), CAST(_basin_sync_id AS VARCHAR) AS _basin_sync_id, f.source_file AS _basin_source_file FROM raw_files.files JOIN raw_files._basin_files AS f ON f.file_id = _basin_file_id`);
      await c.run('DROP TABLE raw_files.files; DROP TABLE raw_files._basin_files; ALTER TABLE raw_files.old RENAME TO files');
    });
    write(t, 'b.csv', 'id,name\n3,c\n4,d\n');
    fs.utimesSync(path.join(t.dir, 'data/in/b.csv'), new Date(), new Date(Date.now() + 5000));
    write(t, 'c.csv', 'id,name\n5,e\n');
    const r2 = await t.engine.run('files');
    assert.equal(r2.status, 'succeeded', r2.error ?? '');
    assert.equal(r2.rows, 3);
    const cols = await rows(t.app, "SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_schema = 'raw_files' AND table_name = 'files' AND starts_with(column_name, '_basin_') ORDER BY 1");
    // the sync id keeps the table's VARCHAR until a full refresh; the path column is gone
    assert.deepEqual(cols, [{ c: '_basin_file_id', t: 'BIGINT' }, { c: '_basin_loaded_at', t: 'TIMESTAMP' }, { c: '_basin_sync_id', t: 'VARCHAR' }]);
    const got = await rows(t.app, `SELECT id::INT AS id, ${FILE_OF_ROW} AS f, _basin_sync_id AS s FROM ${ROWS_WITH_FILES} ORDER BY id`);
    assert.deepEqual(got, [
      { id: 1, f: 'data/in/a.csv', s: r.id },
      { id: 2, f: 'data/in/a.csv', s: r.id },
      { id: 3, f: 'data/in/b.csv', s: r2.id },
      { id: 4, f: 'data/in/b.csv', s: r2.id },
      { id: 5, f: 'data/in/c.csv', s: r2.id },
    ]);
    assert.deepEqual(await rows(t.app, 'SELECT source_file AS f, sync_id::VARCHAR AS s FROM raw_files._basin_files ORDER BY 1'), [
      { f: 'data/in/a.csv', s: r.id },
      { f: 'data/in/b.csv', s: r2.id },
      { f: 'data/in/c.csv', s: r2.id },
    ]);
  });

  it('a malformed CSV fails naming file and line; the previous table and state are kept', async () => {
    const t = await bootSync(YML);
    apps.push(t);
    write(t, 'a.csv', 'id,name\n1,a\n');
    await t.engine.run('files');
    const stateBefore = t.app.container.resolve<any>('syncStore').state('files');
    write(t, 'bad.csv', 'id,name\n2,b\n3,c\n4,d,oops\n5,e\n');
    const r = await t.engine.run('files');
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /bad\.csv at line 4: expected 2 fields/);
    assert.equal(await count(t), 1);
    assert.deepEqual(t.app.container.resolve<any>('syncStore').state('files'), stateBefore);
    fs.rmSync(path.join(t.dir, 'data/in/bad.csv'));
    write(t, 'bad.json', '{"id": 1}\n{"id": 2,\n');
    fs.renameSync(path.join(t.dir, 'data/in/bad.json'), path.join(t.dir, 'data/in/bad.jsonl'));
    const r2 = await t.engine.run('files');
    assert.equal(r2.status, 'failed');
    assert.match(r2.error!, /Malformed JSON .*bad\.jsonl at line 3/);
    assert.equal(await count(t), 1);
  });

  it('an empty file gives status "empty"; a file vanishing mid-sync is skipped with a warning', async () => {
    const t = await bootSync(YML);
    apps.push(t);
    write(t, 'empty.csv', '');
    const r = await t.engine.run('files');
    assert.equal(r.status, 'empty');
    // vanish: the file is listed by the source, then removed before the loader reads it
    write(t, 'x.csv', 'id\n1\n');
    write(t, 'gone.csv', 'id\n2\n');
    const src = t.app.container.resolve<any>('sourceRegistry').get('local_files');
    const orig = src.read;
    (src as any).read = async function* (ctx: any, res: any, st: any) {
      for await (const item of orig.call(src, ctx, res, st)) {
        if (item.kind === 'file' && item.path.endsWith('gone.csv')) fs.rmSync(item.path, { force: true });
        yield item;
      }
    };
    try {
      const r2 = await t.engine.run('files');
      assert.equal(r2.status, 'succeeded', r2.error ?? '');
      assert.equal(r2.rows, 1);
      const logs = t.app.container.resolve<any>('syncStore').logs('files', 50, 0).items.map((l: any) => l.message).join('\n');
      assert.match(logs, /gone\.csv disappeared during the sync/);
    } finally {
      (src as any).read = orig;
    }
  });
});
