// sql_database with dialect mysql against a real MariaDB (Debian's mariadb-server, one server for this
// file): the SDK contract kit, typed loads through the sync engine, a second sync that reads only the
// new rows, and connection errors that name what to fix without the password.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { createTestContext, runSourceContract } from '@basin/sdk/testkit';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { startMariadb } from '../../../test/support/mariadb.js';
import source from '../src/index.js';
import { killScenario } from './kill-fixture.js';

const PASSWORD = 'my-r3ader-pa55word';
const db = await startMariadb();
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  await db.stop();
});

db.sql(`CREATE DATABASE shop; CREATE DATABASE crm;
  CREATE USER 'reader'@'127.0.0.1' IDENTIFIED BY '${PASSWORD}';
  GRANT SELECT ON shop.* TO 'reader'@'127.0.0.1'; GRANT SELECT ON crm.* TO 'reader'@'127.0.0.1';`);
db.sql(
  `CREATE TABLE orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(40) NOT NULL, total DECIMAL(12,2), updated_at DATETIME(6) NOT NULL);
   INSERT INTO orders (customer, total, updated_at) SELECT CONCAT('c', seq), seq * 1.25, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL seq MINUTE FROM seq_1_to_2500;
   CREATE TABLE events (seq INT NOT NULL, kind VARCHAR(10));
   INSERT INTO events SELECT seq, 'view' FROM seq_1_to_40;`,
  'shop',
);
db.sql(
  `CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(50), vip TINYINT(1), big BIGINT UNSIGNED, meta JSON, born DATE);
   INSERT INTO customers SELECT seq, CONCAT('customer ', seq), seq % 2, 18446744073709551615 - seq, JSON_OBJECT('n', seq), DATE '2000-01-01' + INTERVAL seq DAY FROM seq_1_to_10;
   CREATE TABLE orders (id BIGINT PRIMARY KEY, amount DECIMAL(12,2), updated_at DATETIME(6) NOT NULL);
   INSERT INTO orders VALUES (1, 10.50, '2024-01-01 10:00:00'), (2, 20.00, '2024-01-02 10:00:00'), (3, 30.25, '2024-01-03 10:00:00.000001');`,
  'crm',
);

const env = {
  SHOP_URL: db.urlFor('reader', PASSWORD, 'shop'),
  BAD_URL: db.urlFor('reader', 'wrong-password', 'shop'),
  READER_PASSWORD: PASSWORD,
};

runSourceContract(
  source,
  { dialect: 'mysql', connection_url_env: 'SHOP_URL', tables: ['orders', 'events'], incremental: { orders: 'updated_at', events: 'seq' }, chunk_size: 1000 },
  {
    env,
    maxBatch: 1000,
    failingConfig: { dialect: 'mysql', connection_url_env: 'BAD_URL', tables: ['orders'] },
    addData() {
      db.sql(`INSERT INTO orders (customer, total, updated_at) VALUES ('late', 9.99, '2024-06-01 12:00:00.123456'); INSERT INTO events VALUES (41, 'click'), (42, 'click');`, 'shop');
    },
  },
);

test('mysql: a wrong password names the variable to fix and never the password', async () => {
  const ctx = createTestContext(source, { dialect: 'mysql', host: '127.0.0.1', port: db.port, database: 'shop', username: 'reader', password_env: 'WRONG_PW' }, { env: { WRONG_PW: 'not-the-pa55word' } });
  const res = await source.check(ctx);
  assert.equal(res.ok, false);
  assert.match(res.message ?? '', /rejected user "reader".*Check the environment variable WRONG_PW/);
  assert.doesNotMatch(res.message ?? '', /not-the-pa55word/);
  const read = source.read(ctx, [{ name: 'orders' }], {});
  await assert.rejects(read[Symbol.asyncIterator]().next(), (e: Error & { code?: string }) => e.code === 'auth_failed' && !e.message.includes('not-the-pa55word'));
});

test('mysql: an unreachable host says to check the host and port, and a missing database names it', async () => {
  const closed = await import('node:net').then(
    (net) =>
      new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, '127.0.0.1', () => {
          const port = (s.address() as { port: number }).port;
          s.close(() => resolve(port));
        });
      }),
  );
  const unreachable = await source.check(createTestContext(source, { dialect: 'mysql', host: '127.0.0.1', port: closed, database: 'shop', username: 'reader', password_env: 'READER_PASSWORD' }, { env }));
  assert.equal(unreachable.ok, false);
  assert.match(unreachable.message ?? '', new RegExp(`Could not reach MySQL/MariaDB at 127\\.0\\.0\\.1:${closed}/shop \\(ECONNREFUSED\\)\\. Check the host and port`));
  assert.doesNotMatch(unreachable.message ?? '', new RegExp(PASSWORD));
  const missing = await source.check(createTestContext(source, { dialect: 'mysql', host: '127.0.0.1', port: db.port, database: 'shop', username: 'reader', password_env: 'READER_PASSWORD', tables: ['nope'] }, { env }));
  assert.match(missing.message ?? '', /Table "nope" was not found in database "shop"/);
  const pgUrl = await source.check(createTestContext(source, { dialect: 'mysql', connection_url_env: 'PG' }, { env: { PG: 'postgres://u:p@h/db' } }));
  assert.match(pgUrl.message ?? '', /PG must hold a mysql:\/\/ or mariadb:\/\/ URL/);
});

test('mysql through the sync engine: typed raw tables, then a second sync reads only the new and changed rows', async () => {
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"
sources:
  - name: crm_db
    type: sql_database
    sql_database:
      dialect: mysql
      host: 127.0.0.1
      port: ${db.port}
      database: crm
      username: reader
      password_env: READER_PASSWORD
      incremental:
        orders: updated_at
`,
    '.env': `READER_PASSWORD=${PASSWORD}\n`,
  });
  disableAuth(dir);
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  const engine = app.container.resolve<SyncEngine>('syncEngine');
  const first = await engine.run('crm_db', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  assert.deepEqual(first.tables.map((t) => [t.name, t.rows]).sort(), [['customers', 10], ['orders', 3]]);
  const types = await app.warehouse.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'raw_crm_db' AND table_name = 'customers' ORDER BY ordinal_position`);
  assert.deepEqual(types.slice(0, 6), [
    { column_name: 'id', data_type: 'INTEGER' },
    { column_name: 'name', data_type: 'VARCHAR' },
    { column_name: 'vip', data_type: 'SMALLINT' },
    { column_name: 'big', data_type: 'DECIMAL(20,0)' },
    { column_name: 'meta', data_type: 'VARCHAR' },
    { column_name: 'born', data_type: 'DATE' },
  ]);
  const c1 = await app.warehouse.query(`SELECT big::VARCHAR AS big, born::VARCHAR AS born, meta->>'$.n' AS n FROM raw_crm_db.customers WHERE id = 1`);
  assert.deepEqual(c1, [{ big: '18446744073709551614', born: '2000-01-02', n: '1' }]);

  db.sql(`INSERT INTO orders VALUES (4, 40, '2024-01-04 10:00:00'); UPDATE orders SET amount = 99.99, updated_at = '2024-01-05 10:00:00' WHERE id = 1;`, 'crm');
  const second = await engine.run('crm_db', { trigger: 'cli' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  assert.equal(second.tables.find((t) => t.name === 'orders')?.rows, 2, 'only the new and the updated order were read');
  const orders = await app.warehouse.query(`SELECT id::INT AS id, amount::VARCHAR AS amount, updated_at::VARCHAR AS at FROM raw_crm_db.orders ORDER BY id`);
  assert.deepEqual(orders, [
    { id: 1, amount: '99.99', at: '2024-01-05 10:00:00' },
    { id: 2, amount: '20.00', at: '2024-01-02 10:00:00' },
    { id: 3, amount: '30.25', at: '2024-01-03 10:00:00.000001' },
    { id: 4, amount: '40.00', at: '2024-01-04 10:00:00' },
  ]);
  const third = await engine.run('crm_db', { trigger: 'cli' });
  assert.equal(third.tables.find((t) => t.name === 'orders')?.rows ?? 0, 0, 'nothing new, nothing read');
  assert.deepEqual(await app.warehouse.query('SELECT count(*)::INT AS n FROM raw_crm_db.customers'), [{ n: 10 }], 'the full table is replaced, not appended');
});

test('mysql: a SIGKILL mid-sync keeps the previous tables and cursors; the next sync loses and repeats no row', async () => {
  db.sql('CREATE TABLE kill_a (id BIGINT PRIMARY KEY, note VARCHAR(20)); CREATE TABLE kill_b (id BIGINT PRIMARY KEY, note VARCHAR(20));', 'shop');
  await killScenario({
    block: `      dialect: mysql\n      host: 127.0.0.1\n      port: ${db.port}\n      database: shop\n      username: reader\n      password_env: READER_PASSWORD`,
    env: `READER_PASSWORD=${PASSWORD}\n`,
    insert: (t, from, to) => void db.sql(`INSERT INTO ${t} SELECT seq, CONCAT('n', seq) FROM seq_${from}_to_${to}`, 'shop'),
  });
});
