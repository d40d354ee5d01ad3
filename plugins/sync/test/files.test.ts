import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { bootSync, rows, type SyncTestApp } from './helpers.js';

const YML = `version: "1.0"\nsources:\n  - name: files\n    type: local_files\n    local_files:\n      directory: data/in\n`;
const write = (t: SyncTestApp, name: string, content: string) => {
  fs.mkdirSync(path.join(t.dir, 'data/in'), { recursive: true });
  fs.writeFileSync(path.join(t.dir, 'data/in', name), content);
};
const count = async (t: SyncTestApp) => Number((await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_files.files'))[0]!.n);

describe('sync engine: file items through the real local_files source', () => {
  const apps: SyncTestApp[] = [];
  after(async () => {
    for (const a of apps) await a.close();
  });

  it('loads many files into one table by name, with _basin_source_file; forgets deleted and modified files', async () => {
    const t = await bootSync(YML);
    apps.push(t);
    write(t, 'a.csv', 'id,name\n1,a\n2,b\n');
    write(t, 'b.csv', 'id;name;extra\n3;c;x\n');
    write(t, 'c.jsonl', '{"id": 4, "name": "d"}\n{"id": 5, "name": "e"}\n');
    const r = await t.engine.run('files');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    assert.equal(r.rows, 5);
    const got = await rows(t.app, "SELECT id::INT AS id, name, extra, regexp_extract(_basin_source_file, '[^/]+$') AS f FROM raw_files.files ORDER BY id");
    assert.deepEqual(got, [
      { id: 1, name: 'a', extra: null, f: 'a.csv' },
      { id: 2, name: 'b', extra: null, f: 'a.csv' },
      { id: 3, name: 'c', extra: 'x', f: 'b.csv' },
      { id: 4, name: 'd', extra: null, f: 'c.jsonl' },
      { id: 5, name: 'e', extra: null, f: 'c.jsonl' },
    ]);
    // local_files names files relative to the project
    assert.deepEqual(await rows(t.app, 'SELECT DISTINCT _basin_source_file AS f FROM raw_files.files ORDER BY 1'), [{ f: 'data/in/a.csv' }, { f: 'data/in/b.csv' }, { f: 'data/in/c.jsonl' }]);
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
