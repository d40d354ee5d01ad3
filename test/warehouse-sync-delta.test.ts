// Syncs into a server warehouse send only what they changed (issue 22): the embedded DuckDB loads and
// commits, then a merge resource's new and updated rows are merged on the key, an append resource's
// new rows appended, a replace resource swapped whole, files a source reloaded deleted and re-added,
// all in one swap with the cursor state. What moved is counted on the server itself: PostgreSQL's
// xmin (the rows the swap's transaction wrote) and Iceberg's snapshot summary (`added-records`).
// A hand-over killed after the local commit, or a server that missed a sync, leaves the server as it
// was; the next sync sends every table of the source whole (the server converges).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import type { BasinApp, WarehouseClient } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { clientFor, postgresUnderTest, type RunningWarehouse } from './support/warehouse-backends.js';
import { trinoUnderTest } from './support/trino-warehouse.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LIMITS = { timeoutMs: 30_000, maxRows: 1000 };
const SOURCES = `version: "1.0"
sources:
  - name: shop
    type: sql_database
    sql_database:
      dialect: sqlite
      path: data/shop.sqlite
      incremental:
        orders: updated_at
        events: seq
  - name: files
    type: local_files
    local_files:
      directory: data/files
`;

function sqlite(file: string, sql: string): void {
  const db = new Database(file);
  db.exec(sql);
  db.close();
}

const visits = (from: number, n: number, page = '/home') => ['id,page', ...Array.from({ length: n }, (_, i) => `${from + i},${page}`)].join('\n') + '\n';

for (const backend of [postgresUnderTest, trinoUnderTest]) {
  describe(`syncs into ${backend.type} move only new or changed rows`, { skip: backend.unavailable() ?? false }, () => {
    let dir: string;
    let running: RunningWarehouse;
    let app: BasinApp;
    let server: WarehouseClient;
    const db = () => path.join(dir, 'data', 'shop.sqlite');
    const q = (schema: string, table: string) => server.capabilities.qualify(schema, table);
    const num = async (sql: string) => Number((await server.query(sql, LIMITS)).rows[0]![0]);
    const local = async (sql: string) => Number(Object.values((await app.warehouse.query<Record<string, unknown>>(sql))[0]!)[0]);

    /** rows the last write of the table wrote: the newest xmin's rows (PostgreSQL), the last snapshot's added-records (Iceberg) */
    async function written(schema: string, table: string): Promise<number> {
      if (backend.type === 'postgres') return num(`SELECT count(*) FROM ${q(schema, table)} WHERE xmin::text::bigint = (SELECT max(xmin::text::bigint) FROM ${q(schema, table)})`);
      return num(`SELECT CAST(summary['added-records'] AS bigint) FROM ${q(schema, `${table}$snapshots`)} ORDER BY committed_at DESC LIMIT 1`);
    }

    /** the server holds what the local DuckDB holds: rows, key sum, and a value updates change */
    async function sameAsLocal(schema: string, table: string, sum: string): Promise<number> {
      const rows = await num(`SELECT count(*) FROM ${q(schema, table)}`);
      assert.equal(rows, await local(`SELECT count(*) FROM ${schema}.${table}`), `${schema}.${table} row count`);
      assert.equal(await num(`SELECT sum(${sum}) FROM ${q(schema, table)}`), await local(`SELECT sum(${sum}) FROM ${schema}.${table}`), `${schema}.${table} sum(${sum})`);
      return rows;
    }

    const sync = async (source: string) => {
      const rec = await app.container.resolve<any>('syncEngine').run(source);
      assert.equal(rec.status, 'succeeded', rec.error ?? '');
      return rec as { id: string; tables: Array<{ name: string; rows: number }> };
    };
    const loaded = (rec: { tables: Array<{ name: string; rows: number }> }, t: string) => rec.tables.find((x) => x.name === t)!.rows;

    before(async () => {
      dir = makeProject({ '.basin/sources.yml': SOURCES });
      disableAuth(dir);
      running = await backend.start(dir);
      fs.appendFileSync(path.join(dir, '.basin/project.yml'), `\n${stringify({ warehouse: running.section })}`);
      Object.assign(process.env, running.env);
      // the read-only role PostgreSQL's backend provisions (what `basin warehouse migrate` does)
      server = await clientFor(dir, running);
      fs.mkdirSync(path.join(dir, 'data', 'files'), { recursive: true });
      sqlite(
        db(),
        `CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, total INTEGER, updated_at INTEGER NOT NULL);
         WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 2000) INSERT INTO orders SELECT n, 'c' || (n % 97), n, n FROM g;
         CREATE TABLE events (seq INTEGER NOT NULL, kind TEXT);
         WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 3000) INSERT INTO events SELECT n, 'view' FROM g;
         CREATE TABLE countries (code TEXT PRIMARY KEY, name TEXT);
         INSERT INTO countries VALUES ('DE', 'Germany'), ('FR', 'France');`,
      );
      fs.writeFileSync(path.join(dir, 'data/files/a.csv'), visits(1, 100));
      fs.writeFileSync(path.join(dir, 'data/files/b.csv'), visits(101, 100));
      app = await bootApp(dir);
    });
    after(async () => {
      await app?.close();
      await server?.close();
      await running?.stop();
    });

    test('first syncs send whole tables; the server matches the local warehouse', async () => {
      const first = await sync('shop');
      assert.deepEqual(first.tables.map((t) => [t.name, t.rows]).sort(), [['countries', 2], ['events', 3000], ['orders', 2000]]);
      assert.equal(await sameAsLocal('raw_shop', 'orders', 'total'), 2000);
      assert.equal(await written('raw_shop', 'orders'), 2000);
      assert.equal(await sameAsLocal('raw_shop', 'events', 'seq'), 3000);
      await sync('files');
      assert.equal(await sameAsLocal('raw_files', 'files', 'id'), 200);
      assert.deepEqual([...(await server.committedSyncs([first.id]))], [first.id]);
    });

    test('an incremental sync merges the changed rows and appends the new ones; replace stays a whole swap', async () => {
      const cursorBefore = JSON.stringify(await server.cursorState('shop'));
      sqlite(
        db(),
        `UPDATE orders SET total = total + 1000, updated_at = 5000 + id WHERE id IN (3, 5, 7, 11, 13);
         WITH RECURSIVE g(n) AS (SELECT 2001 UNION ALL SELECT n + 1 FROM g WHERE n < 2010) INSERT INTO orders SELECT n, 'new', n, 6000 + n FROM g;
         WITH RECURSIVE g(n) AS (SELECT 3001 UNION ALL SELECT n + 1 FROM g WHERE n < 3020) INSERT INTO events SELECT n, 'click' FROM g;
         INSERT INTO countries VALUES ('IT', 'Italy');`,
      );
      const second = await sync('shop');
      assert.equal(loaded(second, 'orders'), 15, '5 updated + 10 new orders read');
      assert.equal(loaded(second, 'events'), 20);
      // merge: the 15 rows were written, the 1,995 others stay where they were; no duplicate keys
      assert.equal(await written('raw_shop', 'orders'), 15);
      assert.equal(await sameAsLocal('raw_shop', 'orders', 'total'), 2010);
      assert.equal(await num(`SELECT count(DISTINCT id) FROM ${q('raw_shop', 'orders')}`), 2010);
      assert.equal(await num(`SELECT total FROM ${q('raw_shop', 'orders')} WHERE id = 5`), 1005);
      // append: 20 rows written into a 3,020-row table
      assert.equal(await written('raw_shop', 'events'), 20);
      assert.equal(await sameAsLocal('raw_shop', 'events', 'seq'), 3020);
      // replace (no cursor): the whole table, swapped
      assert.equal(await written('raw_shop', 'countries'), 3);
      assert.equal(await sameAsLocal('raw_shop', 'countries', 'length(code)'), 3);
      // the cursor state moved with the rows, in the same swap
      assert.notEqual(JSON.stringify(await server.cursorState('shop')), cursorBefore);
      assert.deepEqual([...(await server.committedSyncs([second.id]))], [second.id]);
    });

    test('a reloaded file: its old rows are deleted on the server, its new rows and a new file appended', async () => {
      fs.writeFileSync(path.join(dir, 'data/files/b.csv'), visits(101, 50, '/pricing'));
      fs.writeFileSync(path.join(dir, 'data/files/c.csv'), visits(201, 10));
      const rec = await sync('files');
      assert.equal(loaded(rec, 'files'), 60);
      assert.equal(await written('raw_files', 'files'), 60, 'only the rows of b.csv (reloaded) and c.csv (new) were written');
      assert.equal(await sameAsLocal('raw_files', 'files', 'id'), 160);
      assert.equal(await num(`SELECT count(*) FROM ${q('raw_files', 'files')} WHERE page = '/pricing'`), 50);
    });

    test('kill mid-hand-over: a process killed after its sync committed locally and staged on the server leaves the server as it was; the next sync converges', async () => {
      const cursor = JSON.stringify(await server.cursorState('shop'));
      const events = await num(`SELECT count(*) FROM ${q('raw_shop', 'events')}`);
      sqlite(db(), `WITH RECURSIVE g(n) AS (SELECT 4001 UNION ALL SELECT n + 1 FROM g WHERE n < 4030) INSERT INTO events SELECT n, 'killed' FROM g;`);
      // one process owns the DuckDB file: this one lets go while the child syncs
      await app.close();
      const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'fixtures', 'warehouse-sync-kill-child.ts'), JSON.stringify({ projectDir: dir, env: running.env, source: 'shop' })], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (b) => (err += b));
      const staged = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (b: Buffer) => b.toString().includes('staged') && resolve(b.toString()));
        child.on('exit', (code) => reject(new Error(`child exited ${code} before staging: ${err}`)));
      });
      assert.match(staged, /\["events","append"\]/, 'the sync was about to append its rows');
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      app = await bootApp(dir);
      // the server: previous tables and cursor, no marker of the killed sync
      assert.equal(await num(`SELECT count(*) FROM ${q('raw_shop', 'events')}`), events);
      assert.equal(JSON.stringify(await server.cursorState('shop')), cursor);
      // the local DuckDB committed the 30 rows; the next sync sends whole tables (the server lacks that sync's marker)
      assert.equal(await local('SELECT count(*) FROM raw_shop.events'), events + 30);
      assert.ok((await server.dropStaleStaging()) >= 1, 'the killed hand-over left staging on the server');
      await sync('shop');
      assert.equal(await written('raw_shop', 'events'), events + 30, 'the whole table, not a delta');
      assert.equal(await sameAsLocal('raw_shop', 'events', 'seq'), events + 30);
      assert.equal(await sameAsLocal('raw_shop', 'orders', 'total'), 2010);
      assert.notEqual(JSON.stringify(await server.cursorState('shop')), cursor);
    });

    test('a server that missed the previous sync gets whole tables, and matches again', async () => {
      const last = (await server.query(`SELECT sync_id FROM ${q('_basin_meta', backend.type === 'postgres' ? 'sync_commits' : 'syncs')} WHERE source = 'shop' ORDER BY committed_at DESC LIMIT 1`, LIMITS)).rows[0]![0];
      // as if that sync's hand-over had failed: the server has no marker of it
      await server.execute(`DELETE FROM ${q('_basin_meta', backend.type === 'postgres' ? 'sync_commits' : 'syncs')} WHERE sync_id = ${server.capabilities.quoteLiteral(String(last))}`);
      sqlite(db(), `INSERT INTO events VALUES (4031, 'late');`);
      const rec = await sync('shop');
      assert.equal(loaded(rec, 'events'), 1);
      assert.equal(await written('raw_shop', 'events'), 3051, 'the whole table, not one row');
      assert.equal(await sameAsLocal('raw_shop', 'events', 'seq'), 3051);
      assert.equal(await sameAsLocal('raw_shop', 'orders', 'total'), 2010);
    });
  });
}
