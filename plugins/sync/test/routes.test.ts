import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bootSync, XHR, type SyncTestApp } from './helpers.js';

const YML = `version: "1.0"
sources:
  - name: files
    type: local_files
    local_files:
      directory: data/uploads/files
  - name: shop
    type: test_records
    description: records
    test_records:
      rows: 2
      api_key: sk_live_supersecret
      token_env: SHOP_TOKEN
  - name: off
    type: test_records
    enabled: false
`;

function multipart(filename: string, content: Buffer | string, field = 'file') {
  const boundary = '----basintest' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, Buffer.isBuffer(content) ? content : Buffer.from(content), tail]), headers: { ...XHR, 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('sources and sync HTTP API', () => {
  let t: SyncTestApp;
  before(async () => {
    t = await bootSync(YML, { '.env': 'SHOP_TOKEN=tok_abcdef123\n' }, { projectYmlExtra: 'uploads:\n  max_file_mb: 1' });
  });
  after(async () => {
    await t.close();
  });
  const inject = (o: any) => t.app.http.inject(o);

  it('GET /api/sources lists the SPEC shape; statuses follow syncs', async () => {
    let res = await inject({ method: 'GET', url: '/api/sources' });
    assert.equal(res.statusCode, 200);
    const list = res.json();
    assert.deepEqual(list.map((s: any) => [s.name, s.type, s.enabled, s.status]), [
      ['files', 'local_files', true, 'not_synced'],
      ['shop', 'test_records', true, 'not_synced'],
      ['off', 'test_records', false, 'not_synced'],
    ]);
    for (const k of ['last_sync', 'row_count', 'freshness', 'tables']) assert.ok(k in list[0], k);
    const r = await t.engine.run('shop');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    t.clock.advance(3 * 86_400_000 + 1000);
    res = await inject({ method: 'GET', url: '/api/sources' });
    const shop = res.json().find((s: any) => s.name === 'shop');
    assert.equal(shop.status, 'synced');
    assert.equal(shop.row_count, 2);
    assert.deepEqual(shop.tables, [{ name: 'items', row_count: 2, schema: 'raw_shop' }]);
    assert.equal(shop.freshness.days_old, 3);
    assert.equal(shop.freshness.last_update, r.finished_at);
  });

  it('details mask secrets and show history, tables and sync mode', async () => {
    const res = await inject({ method: 'GET', url: '/api/sources/shop/details' });
    assert.equal(res.statusCode, 200);
    assert.doesNotMatch(res.body, /supersecret|tok_abcdef123/);
    const d = res.json();
    assert.equal(d.config.test_records.api_key, '********');
    assert.equal(d.config.test_records.token_env, '********');
    assert.equal(d.config.test_records.rows, 2);
    assert.equal(d.sync_history.total, 1);
    assert.equal(d.sync_mode.mode, 'incremental');
    assert.ok(d.tables_detail[0].columns.some((c: any) => c.name === '_basin_sync_id'));
    assert.equal((await inject({ method: 'GET', url: '/api/sources/nope/details' })).statusCode, 404);
  });

  it('GET /api/sources/types lists registry entries', async () => {
    const res = await inject({ method: 'GET', url: '/api/sources/types' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().find((x: any) => x.type === 'test_manifest_only').implemented, false);
    assert.equal(res.json().find((x: any) => x.type === 'stripe').implemented, true);
    const tr = res.json().find((x: any) => x.type === 'test_records');
    assert.equal(tr.implemented, true);
    assert.equal(tr.config_schema.type, 'object');
    assert.deepEqual(tr.capabilities, { incremental: true, dateRange: true, customQueries: false });
  });

  it('POST sync: 202 + status polling; bad dates 400; bad body 422; unknown 404; busy 409', async () => {
    let res = await inject({ method: 'POST', url: '/api/sources/shop/sync', headers: XHR, payload: { start_date: '2026-02-01', end_date: '2026-01-01' } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, 'invalid_date_range');
    res = await inject({ method: 'POST', url: '/api/sources/shop/sync', headers: XHR, payload: { start_date: '2026-02-30' } });
    assert.equal(res.statusCode, 400);
    res = await inject({ method: 'POST', url: '/api/sources/shop/sync', headers: XHR, payload: { full_refresh: 'yes please' } });
    assert.equal(res.statusCode, 422);
    res = await inject({ method: 'POST', url: '/api/sources/nope/sync', headers: XHR, payload: {} });
    assert.equal(res.statusCode, 404);
    res = await inject({ method: 'POST', url: '/api/sources/files/sync', headers: XHR });
    assert.equal(res.statusCode, 202, `no body: ${res.body}`);
    await t.engine.wait(res.json().id);
    res = await inject({ method: 'POST', url: '/api/sources/shop/sync', headers: XHR, payload: { start_date: '2026-01-01', end_date: '2026-01-31' } });
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id;
    const busy = await inject({ method: 'POST', url: '/api/sources/shop/sync', headers: XHR, payload: {} });
    assert.equal(busy.statusCode, 409);
    assert.equal(busy.json().error.code, 'sync_in_progress');
    await t.engine.wait(id);
    res = await inject({ method: 'GET', url: `/api/sync/status/${id}` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, 'succeeded');
    const logs = (await inject({ method: 'GET', url: '/api/sources/shop/logs?limit=5' })).json();
    assert.ok(logs.total > 0 && logs.items.length <= 5);
    assert.match(logs.items.map((l: any) => l.message).join('\n'), /"startDate":"2026-01-01","endDate":"2026-01-31"/);
    assert.equal((await inject({ method: 'GET', url: '/api/sync/status/nope' })).statusCode, 404);
  });

  it('POST /api/sync/trigger starts several sources; unknown names are 404', async () => {
    let res = await inject({ method: 'POST', url: '/api/sync/trigger', headers: XHR, payload: { sources: ['shop', 'zzz'] } });
    assert.equal(res.statusCode, 404);
    res = await inject({ method: 'POST', url: '/api/sync/trigger', headers: XHR, payload: { sources: [] } });
    assert.equal(res.statusCode, 422);
    res = await inject({ method: 'POST', url: '/api/sync/trigger', headers: XHR, payload: { sources: ['shop', 'files'], full_refresh: true } });
    assert.equal(res.statusCode, 202);
    const started = res.json().started;
    assert.equal(started.length, 2);
    for (const s of started) await t.engine.wait(s.id);
  });

  it('upload: content checked, size limit 413, trigger_sync loads it, csv_uploaded emitted', async () => {
    const seen: any[] = [];
    t.app.events.on('csv_uploaded', (p) => void seen.push(p));
    let res = await inject({ method: 'POST', url: '/api/sources/files/upload-csv', ...multipart('sales.csv', 'id,amount\n1,10\n2,20\n') });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().sync, null);
    assert.ok(fs.existsSync(path.join(t.dir, 'data/uploads/files/sales.csv')));
    res = await inject({ method: 'POST', url: '/api/sources/files/upload-csv', ...multipart('fake.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2])) });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, 'invalid_file_content');
    res = await inject({ method: 'POST', url: '/api/sources/files/upload-csv', ...multipart('fake.parquet', 'id,amount\n1,2\n') });
    assert.equal(res.statusCode, 400);
    res = await inject({ method: 'POST', url: '/api/sources/files/upload-csv', ...multipart('run.sh', '#!/bin/sh\n') });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, 'unsupported_file_type');
    res = await inject({ method: 'POST', url: '/api/sources/files/upload-csv', ...multipart('big.csv', 'a\n' + 'x\n'.repeat(700_000)) });
    assert.equal(res.statusCode, 413, res.body);
    assert.match(res.json().error.message, /1 MB/);
    assert.ok(!fs.readdirSync(path.join(t.dir, 'data/uploads/files')).some((f) => f.startsWith('big') || f.startsWith('.upload')));
    res = await inject({ method: 'POST', url: '/api/sources/files/upload-csv?trigger_sync=true', ...multipart('../../evil.jsonl', '{"id": 3, "amount": 30}\n') });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().file, 'evil.jsonl');
    const rec = await t.engine.wait(res.json().sync.id);
    assert.equal(rec.status, 'succeeded', rec.error ?? '');
    assert.equal(rec.trigger, 'upload');
    await t.app.events.idle();
    assert.deepEqual(seen.map((s) => s.file), ['sales.csv', 'evil.jsonl']);
    res = await inject({ method: 'POST', url: '/api/sources/shop/upload-csv', ...multipart('a.csv', 'a\n1\n') });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, 'not_a_file_source');
  });

  it('csv-files: lists disk and loaded files; delete refuses paths outside the directory', async () => {
    const dir = path.join(t.dir, 'data/uploads/files');
    let res = await inject({ method: 'GET', url: '/api/sources/files/csv-files' });
    assert.equal(res.statusCode, 200);
    const files = res.json().files;
    const sales = files.find((f: any) => f.name === 'sales.csv');
    assert.equal(sales.loaded, true);
    assert.deepEqual(sales.tables, [{ table: 'files', rows: 2 }]);
    fs.writeFileSync(path.join(t.dir, 'outside.csv'), 'a\n1\n');
    fs.symlinkSync(path.join(t.dir, 'outside.csv'), path.join(dir, 'link.csv'));
    for (const bad of [path.join(t.dir, 'outside.csv'), `${dir}/../../../outside.csv`, '../outside.csv', path.join(dir, 'link.csv'), '/etc/passwd', dir]) {
      res = await inject({ method: 'DELETE', url: `/api/sources/files/csv-files?file_path=${encodeURIComponent(bad)}`, headers: XHR });
      assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
    }
    assert.ok(fs.existsSync(path.join(t.dir, 'outside.csv')));
    res = await inject({ method: 'DELETE', url: `/api/sources/files/csv-files?file_path=${encodeURIComponent(path.join(dir, 'missing.csv'))}`, headers: XHR });
    assert.equal(res.statusCode, 404);
    res = await inject({ method: 'DELETE', url: `/api/sources/files/csv-files?file_path=${encodeURIComponent(path.join(dir, 'sales.csv'))}`, headers: XHR });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(!fs.existsSync(path.join(dir, 'sales.csv')));
    fs.rmSync(path.join(dir, 'link.csv'));
    const r = await t.engine.run('files');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    res = await inject({ method: 'GET', url: '/api/sources/files/csv-files' });
    assert.equal(res.json().files.find((f: any) => f.name === 'sales.csv'), undefined);
  });

  it('logs, watcher status and health contributions', async () => {
    const all = (await inject({ method: 'GET', url: '/api/logs' })).json();
    assert.ok(all.total >= all.items.length && all.items.length > 0);
    assert.doesNotMatch(JSON.stringify(all), /tok_abcdef123|supersecret/);
    const w = (await inject({ method: 'GET', url: '/api/watcher/status' })).json();
    assert.equal(w.enabled, true);
    assert.equal(w.debounce_seconds, 600);
    assert.deepEqual(w.patterns, ['*.csv', '*.json', '*.jsonl', '*.ndjson', '*.parquet']);
    const h = await t.app.health();
    assert.equal(h.total_sources, 3);
    assert.equal(h.enabled_sources, 2);
    assert.ok(Array.isArray(h.sync_failures));
  });
});
