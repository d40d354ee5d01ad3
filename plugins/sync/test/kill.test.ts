import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import sourcesPlugin from '@basin/plugin-sources';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import syncPlugin, { type SyncEngine } from '../src/index.js';
import { registerTestSources } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const yml = (block: string) => `version: "1.0"\nsources:\n  - name: shop\n    type: test_records\n    test_records:\n${block}`;

async function boot(dir: string) {
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<any>('syncStore') };
}

describe('a killed sync', () => {
  it('leaves the previous table, state and no staging behind after SIGKILL mid-load', async () => {
    await registerTestSources();
    const dir = makeProject({ '.basin/sources.yml': yml('      rows: 3\n') });
    disableAuth(dir);
    let b = await boot(dir);
    assert.equal((await b.engine.run('shop')).status, 'succeeded');
    const stateBefore = b.store.state('shop');
    await b.app.close();

    // second sync: 125k rows reach staging (one full batch of 122,880 loaded), then the source waits forever
    fs.writeFileSync(path.join(dir, '.basin/sources.yml'), yml('      rows: 125000\n      batches: 3\n      hang_at_batch: 1\n'));
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'support/kill-child.ts'), dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('STAGED') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // the next process sees the old data, the old state, a failed history entry, and no staging table
    fs.writeFileSync(path.join(dir, '.basin/sources.yml'), yml('      rows: 3\n'));
    // DuckDB's spill folder of the killed process (it spills there past the load memory limit)
    const spill = `${b.app.warehouse.dbPath}.tmp`;
    fs.mkdirSync(spill, { recursive: true });
    fs.writeFileSync(path.join(spill, 'duckdb_temp_storage_S32K-0.tmp'), Buffer.alloc(1 << 20));
    b = await boot(dir);
    try {
      assert.equal(fs.existsSync(spill), false, 'the spill folder of the killed process is removed at start');
      const got = await b.app.warehouse.query<{ n: number }>('SELECT count(*)::INT AS n FROM raw_shop.items');
      assert.equal(got[0]!.n, 3);
      const stg = await b.app.warehouse.query<{ n: number }>("SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'");
      assert.equal(stg[0]!.n, 0);
      assert.deepEqual(b.store.state('shop'), stateBefore);
      const hist = b.store.history('shop', 10).items;
      assert.equal(hist[0].status, 'failed');
      assert.match(hist[0].error, /interrupted/);
      // and syncing works again, continuing from the committed cursor
      const r = await b.engine.run('shop');
      assert.equal(r.status, 'succeeded', r.error ?? '');
      const ids = await b.app.warehouse.query<{ lo: number; hi: number }>('SELECT min(id)::INT AS lo, max(id)::INT AS hi FROM raw_shop.items');
      assert.deepEqual(ids[0], { lo: 1, hi: 6 });
    } finally {
      await b.app.close();
    }
  });

  it('failed loads give their staging space back: the warehouse does not grow with each failure', async () => {
    await registerTestSources();
    // a full batch (122,880 rows) reaches staging, then the source fails
    const dir = makeProject({ '.basin/sources.yml': yml('      rows: 125000\n      batches: 2\n      fail_at_batch: 1\n') });
    disableAuth(dir);
    const b = await boot(dir);
    try {
      const size = () => [b.app.warehouse.dbPath, `${b.app.warehouse.dbPath}.wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
      for (let i = 0; i < 4; i++) assert.equal((await b.engine.run('shop')).status, 'failed');
      // without the checkpoint after a failed load, the dropped staging stays in the WAL and file (about 10 MB here)
      assert.ok(size() < 3 * 1024 * 1024, `warehouse + WAL are ${size()} bytes after four failed loads`);
    } finally {
      await b.app.close();
    }
  });

  it('settles two-phase cursor state at start-up: promoted when the data committed, dropped otherwise', async () => {
    await registerTestSources();
    const dir = makeProject({ '.basin/sources.yml': yml('      rows: 2\n') });
    disableAuth(dir);
    let b = await boot(dir);
    const ok = await b.engine.run('shop');
    // simulate crashes between the DuckDB commit and the SQLite promote, and before the DuckDB commit
    b.store.db.prepare("INSERT INTO sync_state (source, resource, state_json, sync_id, updated_at) VALUES ('shop','items','{\"next_id\":1}','old','x') ON CONFLICT DO UPDATE SET state_json = excluded.state_json").run();
    b.store.writePending(ok.id, 'shop', new Map([['items', { next_id: 3 }]]));
    b.store.writePending('never-committed', 'shop', new Map([['other', { x: 1 }]]));
    await b.app.close();
    b = await boot(dir);
    try {
      assert.deepEqual(b.store.state('shop'), { items: { next_id: 3 } });
      assert.deepEqual(b.store.pendingSyncIds(), []);
    } finally {
      await b.app.close();
    }
  });
});
