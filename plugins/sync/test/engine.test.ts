import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadSourceRegistry } from '@basin/plugin-sources';
import { defineSource, Type } from '@basin/sdk';
import { bootSync, rows, type SyncTestApp } from './helpers.js';

const yml = (block: string) => `version: "1.0"\nsources:\n  - name: shop\n    type: test_records\n    test_records:\n${block}`;

describe('sync engine: loading records', () => {
  const apps: SyncTestApp[] = [];
  after(async () => {
    for (const a of apps) await a.close();
  });

  it('loads batches into raw_<source>.<resource> with metadata columns and history', async () => {
    const t = await bootSync(yml('      rows: 4\n      batches: 3\n'));
    apps.push(t);
    const events: string[] = [];
    t.app.events.onAny((e) => void events.push(e.type));
    const rec = await t.engine.run('shop', { trigger: 'cli' });
    assert.equal(rec.status, 'succeeded', rec.error ?? '');
    assert.equal(rec.rows, 12);
    assert.deepEqual(rec.tables, [{ name: 'items', schema: 'raw_shop', rows: 12 }]);
    const r = await rows(t.app, 'SELECT count(*)::INT AS n, count(DISTINCT _basin_sync_id)::INT AS s, min(_basin_sync_id)::VARCHAR AS id, min(_basin_loaded_at)::VARCHAR AS at, count(_basin_file_id)::INT AS f FROM raw_shop.items');
    assert.deepEqual(r[0], { n: 12, s: 1, id: rec.id, at: '2026-03-01 12:00:00', f: 0 });
    // the sync id is typed UUID, the load time TIMESTAMP; rows of records name no file
    const types = await rows(t.app, "SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_schema = 'raw_shop' AND table_name = 'items' AND starts_with(column_name, '_basin_') ORDER BY 1");
    assert.deepEqual(types, [{ c: '_basin_file_id', t: 'BIGINT' }, { c: '_basin_loaded_at', t: 'TIMESTAMP' }, { c: '_basin_sync_id', t: 'UUID' }]);
    await t.app.events.idle();
    // sync_progress (live progress for /ws) comes between start and completion
    assert.deepEqual(events.filter((e) => (e.startsWith('sync_') && e !== 'sync_progress') || e === 'freshness_update'), ['sync_started', 'sync_completed', 'freshness_update']);
    assert.ok(events.indexOf('sync_progress') > events.indexOf('sync_started') && events.indexOf('sync_progress') < events.indexOf('sync_completed'), events.join());
    const hist = t.engine.get(rec.id)!;
    assert.equal(hist.status, 'succeeded');
    assert.equal(hist.trigger, 'cli');
    // the lowered load memory limit is not left on the warehouse (after the serving-copy publish too)
    await (t.engine as any).idle();
    const mem = await rows(t.app, "SELECT current_setting('memory_limit') AS m");
    assert.doesNotMatch(String(mem[0]!.m), /^(256|244|192|183)(\.\d+)? MiB/);
    // no staging table is left behind
    const stg = await rows(t.app, "SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'");
    assert.equal(stg[0]!.n, 0);
  });

  it('records holding BigInt values load as exact integers (beyond 2^53)', async () => {
    const t = await bootSync(yml('      rows: 4\n      big_ids: true\n'));
    apps.push(t);
    const rec = await t.engine.run('shop', { trigger: 'cli' });
    assert.equal(rec.status, 'succeeded', rec.error ?? '');
    const r = await rows(t.app, "SELECT id::VARCHAR AS id, typeof(id) AS t FROM raw_shop.items ORDER BY name");
    assert.deepEqual(r.map((x) => x.id), ['1', String(2n ** 60n + 2n), '3', String(2n ** 60n + 4n)]);
    assert.equal(r[0]!.t, 'BIGINT');
  });

  it('commits cursor state only with data: a failed incremental sync keeps the old table and the old state', async () => {
    const t = await bootSync(yml('      rows: 5\n      batches: 2\n'));
    apps.push(t);
    assert.equal((await t.engine.run('shop')).rows, 10);
    const store = t.app.container.resolve<any>('syncStore');
    assert.deepEqual(store.state('shop'), { items: { next_id: 11 } });
    // second run continues from the cursor
    assert.equal((await t.engine.run('shop')).rows, 10);
    assert.deepEqual(await rows(t.app, 'SELECT min(id)::INT AS lo, max(id)::INT AS hi, count(*)::INT AS n FROM raw_shop.items'), [{ lo: 1, hi: 20, n: 20 }]);
    // a run failing after one batch reached staging: nothing changes
    const cfg = t.app.config.file<any>('sources').sources[0].test_records;
    cfg.fail_at_batch = 1;
    const failed = await t.engine.run('shop');
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /503/);
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_shop.items'), [{ n: 20 }]);
    assert.deepEqual(store.state('shop'), { items: { next_id: 21 } });
    const stg = await rows(t.app, "SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'");
    assert.equal(stg[0]!.n, 0);
    delete cfg.fail_at_batch;
  });

  it('refuses a replace that would empty a non-empty table unless full_refresh', async () => {
    const t = await bootSync(yml('      rows: 3\n      disposition: replace\n'));
    apps.push(t);
    assert.equal((await t.engine.run('shop')).status, 'succeeded');
    const cfg = t.app.config.file<any>('sources').sources[0].test_records;
    cfg.rows = 0;
    const r = await t.engine.run('shop');
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /would leave raw_shop\.items empty.*full refresh/);
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_shop.items'), [{ n: 3 }]);
    const full = await t.engine.run('shop', { fullRefresh: true });
    assert.equal(full.status, 'empty');
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_shop.items'), [{ n: 0 }]);
  });

  it('full refresh resets the cursor and replaces the table', async () => {
    const t = await bootSync(yml('      rows: 2\n'));
    apps.push(t);
    await t.engine.run('shop');
    await t.engine.run('shop');
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n, max(id)::INT AS hi FROM raw_shop.items'), [{ n: 4, hi: 4 }]);
    const r = await t.engine.run('shop', { fullRefresh: true });
    assert.equal(r.status, 'succeeded');
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n, max(id)::INT AS hi FROM raw_shop.items'), [{ n: 2, hi: 2 }]);
  });

  it('merge upserts on the primary key', async () => {
    const t = await bootSync(yml('      rows: 3\n      disposition: merge\n'));
    apps.push(t);
    await t.engine.run('shop');
    const store = t.app.container.resolve<any>('syncStore');
    store.clearState('shop'); // the source re-reads ids 1..3
    await t.engine.run('shop');
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS d FROM raw_shop.items'), [{ n: 3, d: 3 }]);
  });

  it('adds new columns and widens retyped ones', async () => {
    const t = await bootSync(yml('      rows: 2\n'));
    apps.push(t);
    await t.engine.run('shop');
    const cfg = t.app.config.file<any>('sources').sources[0].test_records;
    cfg.extra_column = true;
    cfg.amount_as_text = true;
    const r = await t.engine.run('shop');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    const cols = await rows(t.app, "SELECT column_name AS c, data_type AS t FROM information_schema.columns WHERE table_schema = 'raw_shop' AND table_name = 'items' ORDER BY ordinal_position");
    const byName = Object.fromEntries(cols.map((c) => [c.c, c.t]));
    assert.equal(byName.extra, 'VARCHAR');
    assert.equal(byName.amount, 'VARCHAR');
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n, count(extra)::INT AS e FROM raw_shop.items'), [{ n: 4, e: 2 }]);
    // sync records the table's current columns; the history of changes is governance's (its e2e test)
    const observed = t.app.container.resolve<any>('syncStore').tables('shop')[0].columns;
    assert.deepEqual(
      observed.filter((c: any) => c.name === 'extra' || c.name === 'amount').map((c: any) => `${c.name}:${c.type}`).sort(),
      ['amount:VARCHAR', 'extra:VARCHAR'],
    );
  });

  it('one sync per source (409), cancel keeps the previous data', async () => {
    const t = await bootSync(yml('      rows: 2\n      batches: 3\n'));
    apps.push(t);
    await t.engine.run('shop');
    const cfg = t.app.config.file<any>('sources').sources[0].test_records;
    cfg.hang_at_batch = 1;
    const rec = t.engine.start('shop');
    assert.equal(rec.status, 'running');
    assert.equal(t.engine.isRunning('shop'), true);
    assert.throws(() => t.engine.start('shop'), (e: any) => e.status === 409 && e.code === 'sync_in_progress');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(t.engine.cancel(rec.id), true);
    const done = await t.engine.wait(rec.id);
    assert.equal(done.status, 'cancelled');
    assert.deepEqual(await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_shop.items'), [{ n: 6 }]);
    assert.equal(t.engine.isRunning('shop'), false);
    delete cfg.hang_at_batch;
  });

  it('unknown source is 404; a sync id that is not a UUID is 400; an unimplemented type fails naming it', async () => {
    const t = await bootSync(`version: "1.0"\nsources:\n  - name: pay\n    type: test_manifest_only\n    generic_config: {}\n`);
    apps.push(t);
    assert.throws(() => t.engine.start('nope'), (e: any) => e.status === 404);
    // the id is the UUID every row of the sync carries (_basin_sync_id)
    assert.throws(() => t.engine.start('pay', { id: 'sync-1' }), (e: any) => e.status === 400 && /UUID/.test(e.message));
    const r = await t.engine.run('pay');
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /"test_manifest_only".*not implemented/);
  });

  it('afterCommit runs after the data and state are committed, with the committed state; a failure there only warns', async () => {
    let t: SyncTestApp | null = null;
    let fail = false;
    const seen: { state: unknown; loaded: number }[] = [];
    const reg = await loadSourceRegistry();
    if (!reg.get('test_acks')) {
      reg.add(
        defineSource({
          type: 'test_acks',
          category: 'stream',
          authKind: 'none',
          wizard: false,
          configSchema: Type.Object({}, { additionalProperties: false, default: {} }),
          capabilities: { incremental: true, dateRange: false, customQueries: false },
          async check() {
            return { ok: true };
          },
          async discover() {
            return [{ name: 'items', writeDisposition: 'append' }];
          },
          async *read(_ctx, _resources, state) {
            const n = (((state.items as { n?: number } | undefined)?.n ?? 0) as number) + 1;
            yield { kind: 'records', resource: 'items', records: [{ id: n }] };
            yield { kind: 'state', resource: 'items', state: { n } };
          },
          async afterCommit(_ctx, state) {
            // what the origin is told is already in the warehouse
            const r = await rows(t!.app, 'SELECT count(*)::INT AS n FROM raw_acks.items');
            seen.push({ state, loaded: r[0]!.n as number });
            if (fail) throw new Error('the broker went away');
          },
        }),
        'test',
      );
    }
    t = await bootSync(`version: "1.0"\nsources:\n  - name: acks\n    type: test_acks\n    test_acks: {}\n`);
    apps.push(t);
    assert.equal((await t.engine.run('acks')).status, 'succeeded');
    assert.deepEqual(seen, [{ state: { items: { n: 1 } }, loaded: 1 }]);
    fail = true;
    const second = await t.engine.run('acks');
    assert.equal(second.status, 'succeeded', 'a failing afterCommit does not fail the committed sync');
    assert.deepEqual(seen[1], { state: { items: { n: 2 } }, loaded: 2 });
    const logs = t.app.container.resolve<any>('syncStore').logs('acks', 100, 0).items.map((l: any) => l.message).join('\n');
    assert.match(logs, /telling the source what was committed failed \(the next sync tells it again\): the broker went away/);
  });

  it('a missing env var fails naming it; secret values never reach the error or logs', async () => {
    const t = await bootSync(yml('      rows: 1\n      token_env: SHOP_TOKEN_TEST\n'), { '.env': 'OTHER=1\n' });
    apps.push(t);
    const r = await t.engine.run('shop');
    assert.equal(r.status, 'failed');
    assert.match(r.error!, /Environment variable "SHOP_TOKEN_TEST" is not set/);
    process.env.SHOP_TOKEN_TEST = 'bad-token-123';
    try {
      const r2 = await t.engine.run('shop');
      assert.equal(r2.status, 'failed');
      assert.match(r2.error!, /401/);
      assert.doesNotMatch(r2.error!, /bad-token-123/);
      const logs = t.app.container.resolve<any>('syncStore').logs('shop', 100, 0).items.map((l: any) => l.message).join('\n');
      assert.doesNotMatch(logs, /bad-token-123/);
      assert.match(logs, /401/);
    } finally {
      delete process.env.SHOP_TOKEN_TEST;
    }
  });

  it('post-load hooks run before sync_completed', async () => {
    const t = await bootSync(yml('      rows: 1\n'));
    apps.push(t);
    const order: string[] = [];
    t.engine.addPostLoadHook(async (c) => {
      await new Promise((r) => setTimeout(r, 20));
      order.push(`hook:${c.source}:${c.tables[0]!.name}`);
    });
    t.app.events.on('sync_completed', () => void order.push('completed'));
    await t.engine.run('shop');
    await t.app.events.idle();
    assert.deepEqual(order, ['hook:shop:items', 'completed']);
  });

  it('runs at most platform.workers syncs at once (null = 1); the next one starts when a slot frees', async () => {
    const t = await bootSync(`version: "1.0"\nsources:\n  - name: slow\n    type: test_records\n    test_records:\n      hang_at_batch: 0\n  - name: quick\n    type: test_records\n`);
    apps.push(t);
    const started: string[] = [];
    t.app.events.on('sync_started', (p) => void started.push(p.source));
    const slow = t.engine.start('slow');
    await new Promise((r) => setTimeout(r, 30));
    const quick = t.engine.start('quick');
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(started, ['slow']);
    assert.equal(t.engine.get(quick.id)!.status, 'running');
    t.engine.cancel(slow.id);
    assert.equal((await t.engine.wait(quick.id)).status, 'succeeded');
    assert.deepEqual(started, ['slow', 'quick']);
  });
});
