// sql_database load speed (not a test): a 1M-row table in SQLite, MariaDB and PostgreSQL, read bare through
// the driver (every row streamed to JS, nothing done with it) and synced by Basin into DuckDB
// (engine.run, committed), same process, same data. Prints records/s and the ratio Basin / bare.
//   node --conditions=development --import tsx bench/sql-database-load.ts [rows=1000000]
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2';
import pg from 'pg';
import { disableAuth, makeProject } from '@basin/test';
import { startMariadb } from '../test/support/mariadb.js';
import { startPostgres } from '../test/support/postgres.js';
import { openProject } from './sync-common.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const COLS = 'id BIGINT PRIMARY KEY, created_at DATETIME(6) NOT NULL, customer VARCHAR(40), category VARCHAR(10), amount DECIMAL(12,2), quantity INT, comment VARCHAR(120)';
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

async function basinSync(block: string, env = ''): Promise<{ ms: number; rows: number }> {
  const dir = makeProject({ '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: bench\n    type: sql_database\n    sql_database:\n${block}`, '.env': env });
  disableAuth(dir);
  const p = await openProject(dir);
  try {
    const t0 = performance.now();
    const r = await p.engine.run('bench');
    if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
    return { ms: performance.now() - t0, rows: r.rows };
  } finally {
    await p.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

function report(name: string, bare: { ms: number; rows: number }, basin: { ms: number; rows: number }): void {
  console.log(`${name}: bare driver read ${rate(bare.rows, bare.ms).toLocaleString()} rows/s (${(bare.ms / 1000).toFixed(1)} s); Basin sync ${rate(basin.rows, basin.ms).toLocaleString()} rows/s (${(basin.ms / 1000).toFixed(1)} s); Basin / bare = ${(bare.ms / basin.ms).toFixed(2)}`);
}

// SQLite
{
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'bench-sqlite-'));
  const file = path.join(dir, 'shop.db');
  const db = new Database(file);
  db.exec(`CREATE TABLE orders (${COLS.replace('DATETIME(6)', 'TEXT')});
    WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${rows})
    INSERT INTO orders SELECT n, strftime('%Y-%m-%d %H:%M:%f', '2024-01-01', '+' || n || ' seconds'), 'customer_' || (n * 7919 % 100000), 'cat' || (n % 8), (n * 37 % 100000) / 100.0, n % 17, 'note for row ' || n || ' with some free text padding' FROM g;`);
  db.close();
  const t0 = performance.now();
  const r = new Database(file, { readonly: true });
  let n = 0;
  for (const _ of r.prepare('SELECT * FROM orders').safeIntegers(true).iterate()) n++;
  r.close();
  const bare = { ms: performance.now() - t0, rows: n };
  report(`SQLite ${rows.toLocaleString()} rows`, bare, await basinSync(`      dialect: sqlite\n      path: ${file}\n`));
  fs.rmSync(dir, { recursive: true, force: true });
}

// MariaDB
{
  const m = await startMariadb();
  try {
    m.sql(`CREATE DATABASE shop; CREATE USER 'b'@'127.0.0.1' IDENTIFIED BY 'bench-pw'; GRANT SELECT ON shop.* TO 'b'@'127.0.0.1';`);
    m.sql(`CREATE TABLE orders (${COLS}) ENGINE=InnoDB;
      INSERT INTO orders SELECT seq, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL seq SECOND, CONCAT('customer_', seq * 7919 % 100000), CONCAT('cat', seq % 8), (seq * 37 % 100000) / 100, seq % 17, CONCAT('note for row ', seq, ' with some free text padding') FROM seq_1_to_${rows};`, 'shop');
    const conn = mysql.createConnection({ host: '127.0.0.1', port: m.port, user: 'b', password: 'bench-pw', database: 'shop', dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
    const t0 = performance.now();
    let n = 0;
    for await (const _ of conn.query('SELECT * FROM orders').stream({ highWaterMark: 50_000 })) n++;
    const bare = { ms: performance.now() - t0, rows: n };
    conn.end();
    report(`MariaDB ${rows.toLocaleString()} rows`, bare, await basinSync(`      dialect: mysql\n      connection_url_env: DB_URL\n`, `DB_URL=${m.urlFor('b', 'bench-pw', 'shop')}\n`));
  } finally {
    await m.stop();
  }
}

// PostgreSQL, for reference (the same table; the bare read through a server-side cursor like Basin's)
{
  const server = await startPostgres();
  try {
    server.psql(`CREATE DATABASE shop; CREATE ROLE b LOGIN PASSWORD 'bench-pw';`);
    server.psql(`CREATE TABLE orders (${COLS.replace('DATETIME(6)', 'timestamp')}); GRANT SELECT ON orders TO b;
      INSERT INTO orders SELECT g, timestamp '2024-01-01' + g * interval '1 second', 'customer_' || (g * 7919 % 100000), 'cat' || (g % 8), (g * 37 % 100000) / 100.0, g % 17, 'note for row ' || g || ' with some free text padding' FROM generate_series(1::bigint, ${rows}) g;`, 'shop');
    const client = new pg.Client({ connectionString: server.urlFor('b', 'bench-pw', 'shop') });
    await client.connect();
    const t0 = performance.now();
    let n = 0;
    await client.query('BEGIN');
    await client.query('DECLARE c NO SCROLL CURSOR FOR SELECT * FROM orders');
    for (;;) {
      const r = await client.query('FETCH FORWARD 50000 FROM c');
      n += r.rows.length;
      if (r.rows.length < 50_000) break;
    }
    await client.query('COMMIT');
    await client.end();
    const bare = { ms: performance.now() - t0, rows: n };
    report(`PostgreSQL ${rows.toLocaleString()} rows`, bare, await basinSync(`      connection_url_env: DB_URL\n`, `DB_URL=${server.urlFor('b', 'bench-pw', 'shop')}\n`));
  } finally {
    await server.stop();
  }
}
