// Backups against a real S3-compatible server (moto, started once for this file): a backup of a synced
// project, changes made after it, then `basin restore` gives back identical tables, users and configs;
// a damaged backup restores nothing; the `backup` schedule type; multipart uploads; admin only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ManualClock, type BasinApp } from '@basin/core';
import authPlugin, { type AuthService } from '@basin/plugin-auth';
import platformPlugin from '@basin/plugin-platform';
import schedulerPlugin from '@basin/plugin-scheduler';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin from '@basin/plugin-sync';
import { syncEngineRef } from '@basin/plugin-sync/contract';
import { bootApp, makeProject, tempDir } from '@basin/test';
import { startMoto, type MotoServer } from '../../../test/support/moto.js';
import backupsPlugin, { backupsRef, ObjectStore } from '../src/index.js';
import type { BackupManifest } from '../src/contract.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const basin = (args: string[]) =>
  spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, BASIN_DEV: '1' } });
const plugins = [authPlugin, platformPlugin, sourcesPlugin, syncPlugin, schedulerPlugin, backupsPlugin];
const BUCKET = 'basin-backups-test';

describe('backups to S3-compatible storage', () => {
  let moto: MotoServer;
  let s3: S3Client;
  let dir: string;
  let app: BasinApp;
  let adminKey = '';
  let editorKey = '';
  const clock = new ManualClock('2026-03-01T12:00:00Z');

  const boot = async () => {
    app = await bootApp(dir, { clock, plugins });
    return app;
  };
  const tables = async (a: BasinApp) => ({
    orders: await a.warehouse.query('SELECT id, status FROM raw_orders.orders ORDER BY id'),
    customers: await a.warehouse.query('SELECT id, name FROM raw_customers.customers ORDER BY id'),
  });
  const users = (a: BasinApp) =>
    a.container
      .resolve<AuthService>('auth')
      .users.list()
      .map((u) => [u.email, u.role, u.status])
      .sort();

  before(async () => {
    moto = await startMoto();
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: moto.accessKeyId, secretAccessKey: moto.secretAccessKey } });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    dir = makeProject({
      '.basin/sources.yml': `version: "1.0"\nsources:\n${['orders', 'customers'].map((n) => `  - name: ${n}\n    type: local_files\n    local_files:\n      directory: data/${n}\n`).join('')}`,
      'data/orders/orders.csv': 'id,status\n1,paid\n2,open\n3,paid\n',
      'data/customers/customers.csv': 'id,name\n1,Ada\n2,Grace\n',
      '.basin/cloud.yml': `provider: byos\nobject_store:\n  bucket: ${BUCKET}\n  region: us-east-1\n  endpoint: ${moto.endpoint}\n  force_path_style: true\n`,
      '.basin/schedules.yml': 'schedules:\n  - name: nightly_backup\n    type: backup\n    cron: "0 3 * * *"\n',
      '.env': `OBJECT_STORE_ACCESS_KEY=${moto.accessKeyId}\nOBJECT_STORE_SECRET_KEY=${moto.secretAccessKey}\nSOME_TOKEN=very-secret-token\n`,
      'tx/models/marts/orders_paid.sql': "select * from {{ source('orders', 'orders') }} where status = 'paid'\n",
    });
    await boot();
    const auth = app.container.resolve<AuthService>('auth');
    const admin = await auth.addUserWithPassword({ id: null, email: 't', ip: null }, 'admin@example.com', 'admin', 'a long admin password');
    const editor = await auth.addUserWithPassword({ id: null, email: 't', ip: null }, 'editor@example.com', 'editor', 'a long editor password');
    adminKey = auth.keys.create(admin.id, 'test', null).key;
    editorKey = auth.keys.create(editor.id, 'test', null).key;
    for (const source of ['orders', 'customers']) {
      const rec = await app.resolve(syncEngineRef).run(source);
      assert.equal(rec.status, 'succeeded', JSON.stringify(rec));
    }
  });
  after(async () => {
    await app?.close();
    s3?.destroy();
    await moto?.stop();
  });

  const reader = () => new ObjectStore({ bucket: BUCKET, region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, prefix: 'basin-backups/', accessKeyId: 'a', secretAccessKey: 'b' });
  const post = (key: string, url: string, payload?: object) => app.http.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });

  test('a backup uploads the warehouse, databases and configs with a manifest; restore gives identical tables and users', async () => {
    const before = { tables: await tables(app), users: users(app) };
    const res = await post(adminKey, '/api/backups');
    assert.equal(res.statusCode, 200, res.body);
    const { id } = res.json();
    assert.match(id, /^20260301T120000Z-[0-9a-f]{6}$/);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `basin-backups/${id}/` }));
    const manifest = await reader().getJson<BackupManifest>(`${id}/manifest.json`);
    assert.equal(listed.KeyCount, manifest.files.length + 1);
    const paths = manifest.files.map((f) => f.path);
    for (const p of ['data/warehouse.db', '.basin/state.db', '.basin/auth.db', '.basin/project.yml', '.basin/sources.yml', '.basin/schedules.yml', '.basin/cloud.yml', 'tx/models/marts/orders_paid.sql']) assert.ok(paths.includes(p), p);
    assert.ok(!paths.includes('.env'), 'secrets only with include_secrets');
    assert.ok(manifest.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256)));
    assert.equal(manifest.warehouse_copy, 'file_copy');
    assert.ok(!res.body.includes('very-secret-token') && !res.body.includes(moto.secretAccessKey));

    // life goes on after the backup: a new user, a changed table, an edited config
    const auth = app.container.resolve<AuthService>('auth');
    await auth.addUserWithPassword({ id: null, email: 't', ip: null }, 'late@example.com', 'viewer', 'a long viewer password');
    await app.warehouse.write(async (c) => void (await c.run("DELETE FROM raw_orders.orders WHERE status = 'open'")));
    fs.writeFileSync(path.join(dir, '.basin/sources.yml'), 'version: "1.0"\nsources: []\n');
    assert.notDeepEqual(users(app), before.users);
    await app.close();

    const r = basin(['restore', id, '--project', dir]);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, new RegExp(`Restored backup ${id}`));
    assert.ok(!`${r.stdout}${r.stderr}`.includes(moto.secretAccessKey));
    await boot();
    assert.deepEqual(await tables(app), before.tables);
    assert.deepEqual(users(app), before.users);
    assert.match(fs.readFileSync(path.join(dir, '.basin/sources.yml'), 'utf8'), /name: customers/);
    assert.equal(fs.readFileSync(path.join(dir, '.env'), 'utf8').includes('SOME_TOKEN'), true, '.env is left as it is');
  });

  test('a damaged backup restores nothing', async () => {
    const res = await post(adminKey, '/api/backups');
    const { id } = res.json();
    await app.close();
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `basin-backups/${id}/files/0002.gz`, Body: 'not the database' }));
    // a config changed after the backup must survive the refused restore
    const sourcesFile = path.join(dir, '.basin/sources.yml');
    const edited = `${fs.readFileSync(sourcesFile, 'utf8')}# edited after the backup\n`;
    fs.writeFileSync(sourcesFile, edited);
    const r = basin(['restore', id, '--project', dir]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /damaged|incorrect header|checksum/);
    assert.equal(fs.readFileSync(sourcesFile, 'utf8'), edited, 'nothing was put in place');
    assert.equal(fs.readdirSync(path.join(dir, '.basin/tmp')).filter((f) => f.startsWith('restore-')).length, 0, 'staging removed');
    assert.equal(basin(['restore', 'nonsense', '--project', dir]).status, 1);
    await boot();
  });

  test('the backup schedule type runs a backup; include_secrets adds .env', async () => {
    clock.advance(60_000);
    const before = (await app.resolve(backupsRef).list()).length;
    const job = await post(adminKey, '/api/schedules/nightly_backup/trigger');
    assert.equal(job.statusCode, 202, job.body);
    for (let i = 0; i < 100; i++) {
      const j = await app.http.inject({ method: 'GET', url: `/api/schedules/jobs/${job.json().id}`, headers: { authorization: `Bearer ${adminKey}` } });
      if (!['running', 'queued'].includes(j.json().status)) {
        assert.equal(j.json().status, 'succeeded', j.body);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal((await app.resolve(backupsRef).list()).length, before + 1);
    clock.advance(60_000);
    const withSecrets = await post(adminKey, '/api/backups', { include_secrets: true });
    assert.equal(withSecrets.statusCode, 200);
    const list = (await app.http.inject({ method: 'GET', url: '/api/backups', headers: { authorization: `Bearer ${adminKey}` } })).json();
    assert.equal(list[0].id, withSecrets.json().id);
    assert.equal(list[0].include_secrets, true);
    const m = await reader().getJson<BackupManifest>(`${list[0].id}/manifest.json`);
    assert.deepEqual(m.files.filter((f) => f.kind === 'secret').map((f) => f.path), ['.env', '.ingest/secrets.toml', '.basin/secret.key']);
  });

  test('editors cannot back up; a missing key says which variable to set', async () => {
    assert.equal((await post(editorKey, '/api/backups')).statusCode, 403);
    assert.equal((await post(adminKey, '/api/backups', { include_secrets: 'yes' })).statusCode, 422);
    assert.equal((await app.http.inject({ method: 'GET', url: '/api/backups', headers: { authorization: `Bearer ${editorKey}` } })).statusCode, 403);
    const envFile = path.join(dir, '.env');
    const saved = fs.readFileSync(envFile, 'utf8');
    fs.writeFileSync(envFile, saved.replace(/^OBJECT_STORE_SECRET_KEY=.*\n/m, ''));
    const r = await post(adminKey, '/api/backups');
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().error.code, 'object_store_keys_missing');
    assert.deepEqual(r.json().error.details.missing, ['OBJECT_STORE_SECRET_KEY']);
    fs.writeFileSync(envFile, saved);
    const health = (await app.http.inject({ method: 'GET', url: '/api/health/platform' })).json();
    assert.equal(health.backups.configured, true);
    assert.match(health.backups.last_success_at, /^2026-03-01T/);
    assert.match(health.backups.last_error, /OBJECT_STORE_SECRET_KEY/);
    assert.ok(!JSON.stringify(health).includes(moto.secretAccessKey));
  });

  test('large files go up in parts and come back byte for byte', async () => {
    const store = new ObjectStore({ bucket: BUCKET, region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, prefix: 'multipart-test/', accessKeyId: 'a', secretAccessKey: 'b' }, 6 * 1024 * 1024, 5 * 1024 * 1024);
    const t = tempDir();
    const big = Buffer.alloc(13 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big.writeUInt32LE(i, i);
    fs.writeFileSync(path.join(t, 'big'), big);
    await store.putFile('big', path.join(t, 'big'));
    await store.getFile('big', path.join(t, 'back'));
    assert.ok(fs.readFileSync(path.join(t, 'back')).equals(big));
    store.destroy();
  });
});
