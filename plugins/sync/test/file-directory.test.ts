import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadSourceRegistry } from '@basin/plugin-sources';
import { bootSync, XHR, type SyncTestApp } from './helpers.js';

// issue 11 item 7: `filesystem` declares its directory through the SDK capability like local_files,
// so it gets the watcher, uploads and csv-files; issue 12: those routes show no absolute paths
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-bucket-'));
const YML = `version: "1.0"
sources:
  - name: fsdir
    type: filesystem
    filesystem:
      bucket_url: data/uploads/fs
      file_glob: "*.csv"
  - name: far
    type: filesystem
    filesystem:
      bucket_url: file://${outside}
  - name: local
    type: local_files
    local_files:
      directory: data/uploads/local
`;

function multipart(filename: string, content: string) {
  const boundary = '----basintest' + Math.random().toString(16).slice(2);
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { payload: Buffer.from(body), headers: { ...XHR, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('file-directory sources (SDK capability)', () => {
  let t: SyncTestApp;
  before(async () => {
    t = await bootSync(YML, { 'data/uploads/fs/.keep': '', 'data/uploads/local/.keep': '' }, { platform: '  debounce_seconds: 600\n' });
    await t.app.start();
  });
  after(async () => {
    await t.close();
    fs.rmSync(outside, { recursive: true, force: true });
  });
  const inject = (o: any) => t.app.http.inject(o);
  const noAbsolute = (body: string) => {
    assert.ok(!body.includes(t.dir), `a response leaks the project path: ${body}`);
    assert.ok(!body.includes(fs.realpathSync(t.dir)), `a response leaks the project path: ${body}`);
    assert.ok(!body.includes(os.tmpdir()), `a response leaks an absolute path: ${body}`);
  };

  it('file sources declare their directory; other sources do not', async () => {
    const registry = await loadSourceRegistry();
    for (const type of ['filesystem', 'local_files', 'csv']) assert.ok(registry.get(type)?.fileDirectory, type);
    assert.equal(registry.get('rest_api')?.fileDirectory, undefined);
  });

  it('a filesystem source takes uploads and lists its files with project-relative paths', async () => {
    let res = await inject({ method: 'POST', url: '/api/sources/fsdir/upload-csv?trigger_sync=true', ...multipart('sales.csv', 'id,amount\n1,2.5\n2,3.5\n') });
    assert.equal(res.statusCode, 201, res.body);
    noAbsolute(res.body);
    assert.equal(res.json().path, 'data/uploads/fs/sales.csv');
    assert.ok(fs.existsSync(path.join(t.dir, 'data/uploads/fs/sales.csv')));
    const r = await t.engine.wait(res.json().sync.id);
    assert.equal(r.status, 'succeeded', r.error ?? '');
    assert.equal(r.rows, 2);

    res = await inject({ method: 'GET', url: '/api/sources/fsdir/csv-files' });
    assert.equal(res.statusCode, 200, res.body);
    noAbsolute(res.body);
    const body = res.json();
    assert.equal(body.directory, 'data/uploads/fs');
    const f = body.files.find((x: any) => x.name === 'sales.csv');
    assert.equal(f.path, 'data/uploads/fs/sales.csv');
    assert.equal(f.loaded, true);

    // delete by the path the listing shows
    res = await inject({ method: 'DELETE', url: `/api/sources/fsdir/csv-files?file_path=${encodeURIComponent(f.path)}`, headers: XHR });
    assert.equal(res.statusCode, 200, res.body);
    noAbsolute(res.body);
    assert.ok(!fs.existsSync(path.join(t.dir, 'data/uploads/fs/sales.csv')));
  });

  it('a filesystem source outside the project shows paths under its bucket_url, not the server layout of the project', async () => {
    fs.writeFileSync(path.join(outside, 'a.csv'), 'x\n1\n');
    const res = await inject({ method: 'GET', url: '/api/sources/far/csv-files' });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(!res.body.includes(t.dir));
    assert.equal(res.json().files[0].path, `file://${outside}/a.csv`);
  });

  it('the watcher maps a changed file to the filesystem source whose directory holds it; its status shows relative paths', async () => {
    fs.writeFileSync(path.join(t.dir, 'data/uploads/fs/new.csv'), 'id\n1\n');
    const deadline = Date.now() + 10000;
    let st: any;
    do {
      await new Promise((r) => setTimeout(r, 100));
      st = (await inject({ method: 'GET', url: '/api/watcher/status' })).json();
    } while (!st.pending?.[0]?.files.includes('data/uploads/fs/new.csv') && Date.now() < deadline);
    // (the earlier upload and delete in this folder may be pending as well)
    assert.deepEqual(st.pending.map((p: any) => p.source), ['fsdir']);
    assert.ok(st.pending[0].files.includes('data/uploads/fs/new.csv'), JSON.stringify(st.pending));
    for (const f of st.pending[0].files) assert.match(f, /^data\/uploads\/fs\/[a-z]+\.csv$/);
    assert.match(st.last_event.path, /^data\/uploads\/fs\/[a-z]+\.csv$/);
    assert.deepEqual(st.directories, [{ path: 'data/uploads', exists: true }]);
    noAbsolute(JSON.stringify(st));
  });
});
