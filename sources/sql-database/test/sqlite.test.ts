// sql_database with dialect sqlite against a real SQLite file (better-sqlite3): the SDK contract kit,
// typed loads through the sync engine, a second sync that reads only the new rows, and a missing file
// that names the path to fix.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { createTestContext, runSourceContract } from '@basin/sdk/testkit';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import source from '../src/index.js';
import { killScenario } from './kill-fixture.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-sqlite-src-'));
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function exec(file: string, sql: string): void {
  const db = new Database(file);
  db.exec(sql);
  db.close();
}

const shop = path.join(dir, 'shop.db');
exec(
  shop,
  `CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total DECIMAL(12,2), updated_at TEXT NOT NULL);
   WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 2500)
   INSERT INTO orders SELECT n, 'c' || n, n * 1.25, strftime('%Y-%m-%d %H:%M:%f', '2024-01-01', '+' || n || ' minutes') FROM g;
   CREATE TABLE events (seq INT NOT NULL, kind TEXT, payload BLOB);
   WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 40) INSERT INTO events SELECT n, 'view', x'00ff' FROM g;`,
);

runSourceContract(
  source,
  { dialect: 'sqlite', path: shop, tables: ['orders', 'events'], incremental: { orders: 'updated_at', events: 'seq' }, chunk_size: 1000 },
  {
    maxBatch: 1000,
    failingConfig: { dialect: 'sqlite', path: path.join(dir, 'missing.db') },
    addData() {
      exec(shop, `INSERT INTO orders VALUES (9000, 'late', 9.99, '2024-06-01 12:00:00.123'); INSERT INTO events VALUES (41, 'click', NULL), (42, 'click', NULL);`);
    },
  },
);

test('sqlite: a missing file names the path to fix; connection settings of a server are refused', async () => {
  const missing = await source.check(createTestContext(source, { dialect: 'sqlite', path: 'data/nope.db' }));
  assert.equal(missing.ok, false);
  assert.match(missing.message ?? '', /SQLite database file data\/nope\.db was not found .*Check path in the config/);
  const mixed = await source.check(createTestContext(source, { dialect: 'sqlite', path: shop, host: 'db.example' }));
  assert.match(mixed.message ?? '', /reads the file in path; remove host/);
  const none = await source.check(createTestContext(source, { dialect: 'sqlite' }));
  assert.match(none.message ?? '', /dialect sqlite needs path/);
});

test('sqlite through the sync engine: a path relative to the project, typed tables, a second sync reads only new rows', async () => {
  const project = makeProject({
    '.basin/sources.yml': `version: "1.0"
sources:
  - name: crm_db
    type: sql_database
    sql_database:
      dialect: sqlite
      path: data/crm.sqlite
      incremental:
        orders: id
`,
  });
  disableAuth(project);
  fs.mkdirSync(path.join(project, 'data'), { recursive: true });
  const crm = path.join(project, 'data', 'crm.sqlite');
  exec(
    crm,
    `CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR(50), score REAL, big INTEGER);
     INSERT INTO customers VALUES (1, 'a', 1.5, 9007199254740993), (2, 'b', NULL, -1);
     CREATE TABLE orders (id INTEGER PRIMARY KEY, amount NUMERIC(12,2));
     INSERT INTO orders VALUES (1, 10.5), (2, 20);`,
  );
  const app = await bootApp(project, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  const engine = app.container.resolve<SyncEngine>('syncEngine');
  const first = await engine.run('crm_db', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  assert.deepEqual(first.tables.map((t) => [t.name, t.rows]).sort(), [['customers', 2], ['orders', 2]]);
  const types = await app.warehouse.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'raw_crm_db' AND table_name = 'customers' ORDER BY ordinal_position`);
  assert.deepEqual(types.slice(0, 4), [
    { column_name: 'id', data_type: 'BIGINT' },
    { column_name: 'name', data_type: 'VARCHAR' },
    { column_name: 'score', data_type: 'DOUBLE' },
    { column_name: 'big', data_type: 'BIGINT' },
  ]);
  assert.deepEqual(await app.warehouse.query('SELECT big::VARCHAR AS big FROM raw_crm_db.customers ORDER BY id'), [{ big: '9007199254740993' }, { big: '-1' }], '64-bit integers stay exact');

  exec(crm, 'INSERT INTO orders VALUES (3, 30.25), (4, 40);');
  const second = await engine.run('crm_db', { trigger: 'cli' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  assert.equal(second.tables.find((t) => t.name === 'orders')?.rows, 2, 'only the two new orders were read');
  assert.deepEqual(await app.warehouse.query('SELECT id::INT AS id, amount::VARCHAR AS amount FROM raw_crm_db.orders ORDER BY id'), [
    { id: 1, amount: '10.50' },
    { id: 2, amount: '20.00' },
    { id: 3, amount: '30.25' },
    { id: 4, amount: '40.00' },
  ]);
});

test('sqlite: a SIGKILL mid-sync keeps the previous tables and cursors; the next sync loses and repeats no row', async () => {
  const file = path.join(dir, 'kill.db');
  exec(file, 'CREATE TABLE kill_a (id INTEGER PRIMARY KEY, note TEXT); CREATE TABLE kill_b (id INTEGER PRIMARY KEY, note TEXT);');
  await killScenario({
    block: `      dialect: sqlite\n      path: ${JSON.stringify(file)}`,
    insert: (t, from, to) => exec(file, `WITH RECURSIVE g(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM g WHERE n < ${to}) INSERT INTO ${t} SELECT n, 'n' || n FROM g`),
  });
});
