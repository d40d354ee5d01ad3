// pg_replication load speed (not a test), against Debian's PostgreSQL with wal_level=logical, same
// process, same data:
//   1. initial snapshot of a 1M-row table: a bare cursor read through node-pg vs Basin's first sync
//      (slot created, exported snapshot read, loaded into DuckDB, committed);
//   2. 1M changed rows (one UPDATE of every row): a bare pgoutput read of the changes through
//      pg-logical-replication's own client (a second slot, every message decoded, nothing done with
//      it) vs Basin's second sync (changes decoded, staged, merged on the key, committed).
// Prints records/s and the ratio Basin / bare.
//   node --conditions=development --import tsx bench/pg-replication-load.ts [rows=1000000]
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { LogicalReplicationService, PgoutputPlugin } from 'pg-logical-replication';
import { disableAuth, makeProject } from '@basin/test';
import { startPostgres } from '../test/support/postgres.js';
import { openProject } from './sync-common.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
function report(name: string, bare: { ms: number; rows: number }, basin: { ms: number; rows: number }): void {
  console.log(`${name}: bare read ${rate(bare.rows, bare.ms).toLocaleString()} records/s (${(bare.ms / 1000).toFixed(1)} s); Basin sync ${rate(basin.rows, basin.ms).toLocaleString()} records/s (${(basin.ms / 1000).toFixed(1)} s); Basin / bare = ${(bare.ms / basin.ms).toFixed(2)}`);
}

const server = await startPostgres({ walLevel: 'logical' });
const dir = makeProject({
  '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: bench\n    type: pg_replication\n    generic_config:\n      connection_url_env: DB_URL\n      tables: [orders]\n',
  '.env': `DB_URL=${server.urlFor('b', 'bench-pw', 'shop')}\n`,
});
disableAuth(dir);
const p = await openProject(dir);
try {
  server.psql(`CREATE DATABASE shop; CREATE ROLE b LOGIN REPLICATION PASSWORD 'bench-pw';`);
  server.psql(`GRANT ALL ON SCHEMA public TO b; GRANT CREATE ON DATABASE shop TO b; SET ROLE b;
    CREATE TABLE orders (id bigint PRIMARY KEY, created_at timestamp NOT NULL, customer varchar(40), category varchar(10), amount numeric(12,2), quantity int, comment varchar(120));
    INSERT INTO orders SELECT g, timestamp '2024-01-01' + g * interval '1 second', 'customer_' || (g * 7919 % 100000), 'cat' || (g % 8), (g * 37 % 100000) / 100.0, g % 17, 'note for row ' || g || ' with some free text padding' FROM generate_series(1::bigint, ${rows}) g;`, 'shop');
  const url = server.urlFor('b', 'bench-pw', 'shop');

  // 1. initial snapshot
  {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const t0 = performance.now();
    let n = 0;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query('DECLARE c NO SCROLL CURSOR FOR SELECT * FROM orders');
    for (;;) {
      const r = await client.query('FETCH FORWARD 50000 FROM c');
      n += r.rows.length;
      if (r.rows.length < 50_000) break;
    }
    await client.query('COMMIT');
    await client.end();
    const bare = { ms: performance.now() - t0, rows: n };
    const t1 = performance.now();
    const r = await p.engine.run('bench');
    if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
    report(`initial snapshot, ${rows.toLocaleString()} rows`, bare, { ms: performance.now() - t1, rows: r.rows });
  }

  // 2. 1M changed rows: a second slot on Basin's publication sees the same changes
  {
    server.psql("SELECT pg_create_logical_replication_slot('bare_slot', 'pgoutput')", 'shop');
    server.psql('UPDATE orders SET quantity = quantity + 1', 'shop');
    const service = new LogicalReplicationService({ connectionString: url }, { acknowledge: { auto: false, timeoutSeconds: 0 } });
    const t0 = performance.now();
    let n = 0;
    const done = new Promise<void>((resolve, reject) => {
      service.on('data', (_lsn: string, msg: { tag: string }) => {
        if (msg.tag === 'update' || msg.tag === 'insert' || msg.tag === 'delete') n++;
        else if (msg.tag === 'commit' && n >= rows) resolve();
      });
      service.on('error', reject);
    });
    void service.subscribe(new PgoutputPlugin({ protoVersion: 1, publicationNames: ['basin_bench'] }), 'bare_slot').catch(() => undefined);
    await done;
    const bare = { ms: performance.now() - t0, rows: n };
    await service.destroy();
    server.psql("SELECT pg_drop_replication_slot('bare_slot')", 'shop');
    const t1 = performance.now();
    const r = await p.engine.run('bench');
    if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
    report(`${rows.toLocaleString()} changed rows`, bare, { ms: performance.now() - t1, rows: r.rows });
    const check = await p.app.warehouse.query<{ n: number; q: number }>('SELECT count(*)::INT AS n, sum(quantity)::INT AS q FROM raw_bench.orders');
    const want = server.psql('SELECT count(*) || \'|\' || sum(quantity) FROM orders', 'shop').trim();
    if (`${check[0]!.n}|${check[0]!.q}` !== want) throw new Error(`warehouse ${check[0]!.n}|${check[0]!.q} differs from the source ${want}`);
  }
} finally {
  await p.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  await server.stop();
}
