// pg_replication through the real sync engine into DuckDB, against Debian's PostgreSQL with
// wal_level=logical: the initial snapshot, inserts/updates/deletes merged on the primary key (deletes
// flagged or removed), a second sync reading only what is new, a kill -9 mid-sync that neither loses
// nor duplicates a row, and the slot and publication dropped on request.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { asReplicator, REPLICATOR, replicationServer } from './pg-fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pg = await replicationServer();
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  await pg.stop();
});

const URL_ENV = `SHOP_URL=${pg.urlFor(REPLICATOR.user, REPLICATOR.password, 'shop')}\n`;
const yml = (name: string, extra = '') => `version: "1.0"
sources:
  - name: ${name}
    type: pg_replication
    generic_config:
      connection_url_env: SHOP_URL
${extra}`;

async function boot(dir: string): Promise<{ app: BasinApp; engine: SyncEngine; store: any }> {
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<any>('syncStore') };
}
async function project(name: string, extra = '') {
  const dir = makeProject({ '.basin/sources.yml': yml(name, extra), '.env': URL_ENV });
  disableAuth(dir);
  return { dir, ...(await boot(dir)) };
}
const num = (v: unknown) => Number(v);
const slotLsn = (slot: string) => pg.psql(`SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '${slot}'`).trim();

test('snapshot, then inserts, updates and deletes merged on the key with deletes flagged; a second sync reads only what is new', async () => {
  asReplicator(pg, `CREATE TABLE customers (id int PRIMARY KEY, name text, balance numeric(12,2), seen timestamptz, tags text[]);
    INSERT INTO customers SELECT g, 'c' || g, g * 1.5, timestamptz '2024-01-01 00:00:00.123456+00' + g * interval '1 hour', ARRAY['a', 'b'] FROM generate_series(1, 1000) g;
    CREATE TABLE notes (id bigint PRIMARY KEY, body text);
    CREATE TABLE nokey (x int);`);
  const { app, engine } = await project('flagged', '      tables: [customers, notes]\n');
  const first = await engine.run('flagged');
  assert.equal(first.status, 'succeeded', first.error ?? '');
  assert.deepEqual(first.tables.map((t) => [t.name, t.rows]), [['customers', 1000]]);
  const types = await app.warehouse.query<{ column_name: string; data_type: string }>(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'raw_flagged' AND table_name = 'customers' ORDER BY ordinal_position`);
  assert.deepEqual(types.slice(0, 7).map((t) => `${t.column_name} ${t.data_type}`), ['id INTEGER', 'name VARCHAR', 'balance DECIMAL(12,2)', 'seen TIMESTAMP WITH TIME ZONE', 'tags VARCHAR[]', '_basin_lsn BIGINT', '_basin_deleted BOOLEAN']);
  assert.equal(pg.psql("SELECT count(*) FROM pg_publication WHERE pubname = 'basin_flagged'", 'shop').trim(), '1');

  // changes: inserts, updates (one twice, one key changed), deletes, an insert then delete in one go, and rows of notes
  asReplicator(pg, `INSERT INTO customers VALUES (1001, 'new', 1, '2025-01-01 10:00:00.5+00', NULL), (1002, 'gone soon', 2, NULL, NULL);
    UPDATE customers SET name = 'renamed' WHERE id = 5;
    BEGIN; UPDATE customers SET balance = 10 WHERE id = 6; UPDATE customers SET balance = 20 WHERE id = 6; COMMIT;
    UPDATE customers SET id = 2000 WHERE id = 7;
    DELETE FROM customers WHERE id IN (8, 9, 1002);
    INSERT INTO notes VALUES (1, 'hello'), (2, 'world');`);
  const second = await engine.run('flagged');
  assert.equal(second.status, 'succeeded', second.error ?? '');
  const q = (sql: string) => app.warehouse.query<Record<string, unknown>>(sql);
  assert.deepEqual((await q('SELECT count(*) AS n, count(DISTINCT id) AS k, count(*) FILTER (WHERE _basin_deleted) AS d FROM raw_flagged.customers')).map((r) => [num(r.n), num(r.k), num(r.d)]), [[1003, 1003, 4]]);
  const rows = await q(`SELECT id, name, balance::VARCHAR AS balance, seen::VARCHAR AS seen, _basin_deleted AS del FROM raw_flagged.customers WHERE id IN (5, 6, 7, 8, 1001, 1002, 2000) ORDER BY id`);
  assert.deepEqual(rows.map((r) => [r.id, r.name, r.balance, r.seen, r.del]), [
    [5, 'renamed', '7.50', '2024-01-01 05:00:00.123456+00', false],
    [6, 'c6', '20.00', '2024-01-01 06:00:00.123456+00', false],
    [7, null, null, null, true],
    [8, null, null, null, true],
    [1001, 'new', '1.00', '2025-01-01 10:00:00.5+00', false],
    [1002, null, null, null, true],
    [2000, 'c7', '10.50', '2024-01-01 07:00:00.123456+00', false],
  ]);
  assert.deepEqual((await q('SELECT id, body FROM raw_flagged.notes ORDER BY id')).map((r) => [num(r.id), r.body]), [[1, 'hello'], [2, 'world']]);
  // only the changes were read: 2 inserts, 1 + 2 updates, a key change (delete + insert), 3 deletes, 2 notes
  assert.equal(second.tables.find((t) => t.name === 'customers')?.rows, 10);

  // nothing new: nothing read, and the slot was acknowledged up to what the warehouse holds
  const third = await engine.run('flagged');
  assert.equal(third.status, 'succeeded', third.error ?? '');
  assert.equal(third.tables.reduce((n, t) => n + t.rows, 0), 0);
  const state = (app.container.resolve<any>('syncStore')).state('flagged');
  assert.equal(slotLsn('basin_flagged'), state.customers.lsn);
});

test('deletes: remove drops deleted rows, including a key inserted and deleted between two syncs', async () => {
  asReplicator(pg, `CREATE TABLE items (sku text PRIMARY KEY, qty int);
    INSERT INTO items SELECT 'sku' || g, g FROM generate_series(1, 50) g;`);
  const { app, engine } = await project('removed', '      tables: [items]\n      deletes: remove\n');
  assert.equal((await engine.run('removed')).status, 'succeeded');
  asReplicator(pg, `DELETE FROM items WHERE sku IN ('sku1', 'sku2'); UPDATE items SET qty = 0 WHERE sku = 'sku3';
    INSERT INTO items VALUES ('tmp', 1); DELETE FROM items WHERE sku = 'tmp'; INSERT INTO items VALUES ('sku1', 100);`);
  const r = await engine.run('removed');
  assert.equal(r.status, 'succeeded', r.error ?? '');
  const got = await app.warehouse.query<Record<string, unknown>>('SELECT sku, qty FROM raw_removed.items ORDER BY sku');
  const want = pg.psql("SELECT sku || ':' || qty FROM items ORDER BY sku", 'shop').trim().split('\n');
  assert.deepEqual(got.map((x) => `${x.sku}:${x.qty}`), want);
  assert.ok(!got.some((x) => x.sku === 'sku2' || x.sku === 'tmp'));
  const cols = await app.warehouse.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'raw_removed' AND table_name = 'items'`);
  assert.ok(!cols.some((c) => c.column_name === '_basin_deleted'), 'the delete marker is not stored with deletes: remove');
});

test('a kill -9 mid-sync keeps the previous tables, state and slot position; the next sync neither loses nor duplicates a row', async () => {
  asReplicator(pg, `CREATE TABLE events (id bigint PRIMARY KEY, n int, note text);
    INSERT INTO events SELECT g, 0, 'start' FROM generate_series(1, 1000) g;`);
  const name = 'killed';
  const extra = '      tables: [events]\n      chunk_size: 5000\n';
  let b = await project(name, extra);
  assert.equal((await b.engine.run(name)).status, 'succeeded');
  const stateBefore = b.store.state(name);
  const lsnBefore = slotLsn(`basin_${name}`);
  await b.app.close();
  asReplicator(pg, `INSERT INTO events SELECT g, 1, 'later' FROM generate_series(1001, 150000) g;
    UPDATE events SET n = n + 1 WHERE id % 10 = 0;
    DELETE FROM events WHERE id % 7 = 0;`);

  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, '../../../plugins/sync/test/support/sync-child.ts'), b.dir, name], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('STAGED') && resolve());
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  b = { dir: b.dir, ...(await boot(b.dir)) };
  const count = async (sql: string) => num((await b.app.warehouse.query<{ n: unknown }>(sql))[0]!.n);
  assert.equal(await count('SELECT count(*) AS n FROM raw_killed.events'), 1000, 'the previous table is intact');
  assert.deepEqual(b.store.state(name), stateBefore, 'the saved LSN is intact');
  assert.equal(slotLsn(`basin_${name}`), lsnBefore, 'the server was not acknowledged past the committed position');
  const again = await b.engine.run(name);
  assert.equal(again.status, 'succeeded', again.error ?? '');
  const source = pg.psql('SELECT count(*), sum(n), sum(id) FROM events', 'shop').trim();
  const live = await b.app.warehouse.query<Record<string, unknown>>('SELECT count(*) AS c, sum(n) AS s, sum(id) AS i FROM raw_killed.events WHERE NOT _basin_deleted');
  assert.equal(`${live[0]!.c}|${live[0]!.s}|${live[0]!.i}`, source, 'every live row once, with its latest values');
  assert.equal(await count('SELECT count(*) - count(DISTINCT id) AS n FROM raw_killed.events'), 0, 'no key twice');
  assert.equal(await count('SELECT count(*) AS n FROM raw_killed.events WHERE _basin_deleted'), Math.floor(150000 / 7));
});

test('drop_replication drops the slot and the publication Basin created, and loads nothing', async () => {
  asReplicator(pg, 'CREATE TABLE tmp_drop (id int PRIMARY KEY); INSERT INTO tmp_drop VALUES (1);');
  const { dir, app, engine } = await project('dropper', '      tables: [tmp_drop]\n');
  assert.equal((await engine.run('dropper')).status, 'succeeded');
  assert.equal(pg.psql("SELECT count(*) FROM pg_publication WHERE pubname = 'basin_dropper'", 'shop').trim(), '1');
  await app.close();
  assert.equal(pg.psql("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'basin_dropper'").trim(), '1');
  fs.writeFileSync(path.join(dir, '.basin/sources.yml'), yml('dropper', '      tables: [tmp_drop]\n      drop_replication: true\n'));
  const b = await boot(dir);
  const r = await b.engine.run('dropper');
  assert.equal(r.status, 'succeeded', r.error ?? '');
  assert.equal(pg.psql("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'basin_dropper'").trim(), '0');
  assert.equal(pg.psql("SELECT count(*) FROM pg_publication WHERE pubname = 'basin_dropper'", 'shop').trim(), '0');
  assert.equal(num((await b.app.warehouse.query<{ n: unknown }>('SELECT count(*) AS n FROM raw_dropper.tmp_drop'))[0]!.n), 1, 'the loaded rows stay');
});

test('removing the source through the API drops its slot and publication first; a failing teardown keeps the source', async () => {
  asReplicator(pg, 'CREATE TABLE tmp_rm (id int PRIMARY KEY); INSERT INTO tmp_rm VALUES (1);');
  const { app, engine } = await project('rm_me', '      tables: [tmp_rm]\n');
  assert.equal((await engine.run('rm_me')).status, 'succeeded');
  assert.equal(pg.psql("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'basin_rm_me'").trim(), '1');
  const XHR = { 'x-requested-with': 'XMLHttpRequest' };

  // the database refuses the login: the removal is refused, naming the variable and not the password
  const badPassword = 'Wr0ng-pass-for-teardown';
  const bad = await project('rm_bad', '      tables: [tmp_rm]\n      slot_name: basin_rm_me\n');
  fs.writeFileSync(path.join(bad.dir, '.env'), `SHOP_URL=${pg.urlFor(REPLICATOR.user, badPassword, 'shop')}\n`);
  await bad.app.close();
  const b2 = await boot(bad.dir);
  const refused = await b2.app.http.inject({ method: 'DELETE', url: '/api/sources/rm_bad', headers: XHR });
  assert.equal(refused.statusCode, 409, refused.body);
  assert.equal(refused.json().error.code, 'teardown_failed');
  assert.match(refused.json().error.message, /SHOP_URL/);
  assert.ok(!refused.body.includes(badPassword));
  assert.match(fs.readFileSync(path.join(bad.dir, '.basin/sources.yml'), 'utf8'), /rm_bad/, 'the source is still configured');
  const forced = await b2.app.http.inject({ method: 'DELETE', url: '/api/sources/rm_bad?keep_external=true', headers: XHR });
  assert.equal(forced.statusCode, 200, forced.body);

  const res = await app.http.inject({ method: 'DELETE', url: '/api/sources/rm_me', headers: XHR });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.json().teardown, /slot "basin_rm_me" dropped; publication "basin_rm_me" dropped/);
  assert.equal(pg.psql("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'basin_rm_me'").trim(), '0');
  assert.equal(pg.psql("SELECT count(*) FROM pg_publication WHERE pubname = 'basin_rm_me'", 'shop').trim(), '0');
});
