// The SIGKILL scenario of sql_database, the same on every dialect: a first sync of two incremental
// tables, then 60,000 new rows in kill_a (one 50,000-row batch reaches staging) and 5 in kill_b; the
// sync child is killed once kill_a is read and its cursor checkpointed, before anything commits. The
// next process must see the first sync's tables and cursors, and its sync must load every new row once.
import assert from 'node:assert/strict';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { killMidSync } from '../../../test/support/sync-kill.js';

export interface KillDialect {
  /** the lines of the sql_database block that reach the database (dialect, connection) */
  block: string;
  env?: string;
  /** adds rows with ids from..to (inclusive) to kill_a or kill_b, both (id BIGINT PRIMARY KEY, note VARCHAR) */
  insert(table: 'kill_a' | 'kill_b', from: number, to: number): Promise<void> | void;
}

export async function killScenario(d: KillDialect): Promise<void> {
  await d.insert('kill_a', 1, 1000);
  await d.insert('kill_b', 1, 10);
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: db\n    type: sql_database\n    sql_database:\n${d.block}\n      tables: [kill_a, kill_b]\n      incremental: { kill_a: id, kill_b: id }\n      chunk_size: 10000\n`,
    ...(d.env ? { '.env': d.env } : {}),
  });
  disableAuth(dir);
  const boot = async () => {
    const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
    return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<any>('syncStore') };
  };
  const counts = async (b: Awaited<ReturnType<typeof boot>>) =>
    (await b.app.warehouse.query<{ a: number; da: number; b: number; db: number }>(
      'SELECT (SELECT count(*) FROM raw_db.kill_a)::INT AS a, (SELECT count(DISTINCT id) FROM raw_db.kill_a)::INT AS da, (SELECT count(*) FROM raw_db.kill_b)::INT AS b, (SELECT count(DISTINCT id) FROM raw_db.kill_b)::INT AS db',
    ))[0];

  let b = await boot();
  try {
    const first = await b.engine.run('db');
    assert.equal(first.status, 'succeeded', first.error ?? '');
  } finally {
    await b.app.close();
  }
  b = await boot();
  const stateBefore = b.store.state('db');
  assert.deepEqual(await counts(b), { a: 1000, da: 1000, b: 10, db: 10 });
  await b.app.close();

  await d.insert('kill_a', 1001, 61_000);
  await d.insert('kill_b', 11, 15);
  const held = await killMidSync(dir, 'db', 'sql_database', 1);
  assert.ok(held.staged >= 50_000, `a batch of kill_a reached staging before the kill (${held.staged} rows)`);

  b = await boot();
  try {
    assert.deepEqual(await counts(b), { a: 1000, da: 1000, b: 10, db: 10 }, 'the tables of the first sync, untouched');
    assert.deepEqual(b.store.state('db'), stateBefore, 'the cursors of the first sync');
    const stg = await b.app.warehouse.query<{ n: number }>("SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'");
    assert.equal(stg[0]!.n, 0);
    assert.equal(b.store.history('db', 10).items[0].status, 'failed');
    const again = await b.engine.run('db');
    assert.equal(again.status, 'succeeded', again.error ?? '');
    assert.deepEqual(await counts(b), { a: 61_000, da: 61_000, b: 15, db: 15 }, 'every new row once');
  } finally {
    await b.app.close();
  }
}
