// dbt from anywhere: `basin sync` without a server builds the staging models it generated; the tx API takes
// dbt selectors and full_refresh; `basin tx run` goes through the running server and streams its output.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createApp, type BasinApp } from '@basin/core';
import { cli, txProject } from './fixtures/project.js';

const sources = 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n';
// local_files loads a folder into one table named after the source: raw_shop.shop, staged as stg_shop__shop
const mart = "select status, count(*) as orders from {{ ref('stg_shop__shop') }} group by status\n";
const dir = txProject('', { '.basin/sources.yml': sources, 'data/shop/orders.csv': 'id,status,amount\n1,paid,10\n2,open,20\n3,paid,30\n', 'tx/models/marts/orders_by_status.sql': mart });
fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\ntx:\n  docs_after_run: false\n');

test('basin sync without a server builds the staging models it generated (auto_tx), and says so when auto_tx is off', async () => {
  const r = await cli(['sync', 'shop', '--project', dir]);
  assert.equal(r.code, 0, r.err + r.out);
  assert.match(r.out, /shop: succeeded - 3 rows/);
  assert.match(r.out, /Running dbt after the sync of shop/);
  assert.match(r.out, /OK created sql view model main\.stg_shop__shop/);
  assert.match(r.out, /dbt run tx_[0-9a-f]+: succeeded/);
  assert.ok(fs.existsSync(path.join(dir, 'tx/models/staging/shop/stg_shop__shop.sql')));

  // auto_tx off: a newly generated staging model is named with the command that builds it
  const off = txProject('  auto_tx: false\n', { '.basin/sources.yml': sources, 'data/shop/orders.csv': 'id,status\n1,paid\n', 'tx/models/marts/orders_by_status.sql': mart });
  const r2 = await cli(['sync', 'shop', '--project', off]);
  assert.equal(r2.code, 0, r2.err + r2.out);
  assert.match(r2.out, /Generated staging model\(s\) stg_shop__shop; platform\.auto_tx is off, so build them with: basin tx run/);
  assert.doesNotMatch(r2.out, /Running dbt/);
});

test('the tx API takes dbt selectors and full_refresh; basin tx run streams a run of the running server', async () => {
  let app: BasinApp | undefined;
  try {
    app = await createApp({ projectDir: dir });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const post = (payload: unknown) => app!.http.inject({ method: 'POST', url: '/api/tx/runs', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: payload as object });

    assert.equal((await post({ select: 'x; rm -rf /' })).statusCode, 422);
    assert.equal((await post({ command: 'test', full_refresh: true })).statusCode, 400);
    assert.equal((await post({ command: 'snapshot', full_refresh: true })).statusCode, 400);
    // seed and snapshot are runner commands (issue 18); anything else is not
    assert.equal((await post({ command: 'compile' })).statusCode, 422);

    // `+model` builds what the model needs first; a list is joined into one selection
    const res = await post({ select: ['+orders_by_status', 'gate'], full_refresh: true });
    assert.equal(res.statusCode, 202, res.body);
    const started = res.json();
    assert.equal(started.selector, '+orders_by_status gate');
    const runner = app.container.resolve<{ wait(id: string): Promise<any> }>('txRunner');
    const rec = await runner.wait(started.id);
    assert.equal(rec.status, 'succeeded', rec.error);
    assert.deepEqual(rec.models.map((m: { name: string }) => m.name).sort(), ['gate', 'orders_by_status', 'stg_shop__shop']);
    const output = (await app.http.inject({ url: `/api/tx/runs/${started.id}/output?after=0` })).json();
    assert.equal(output.finished, true);
    assert.ok(output.lines.some((l: string) => /--full-refresh|Running with dbt/.test(l)), output.lines.join('\n'));

    // the CLI finds the server and lets it run dbt (the warehouse has one writer)
    const r = await cli(['tx', 'run', 'orders_by_status', '--project', dir]);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /server is running for this project .* dbt runs there/);
    assert.match(r.out, /OK created sql table model main\.orders_by_status/);
    assert.match(r.out, /Run tx_[0-9a-f]+: succeeded/);
  } finally {
    await app?.close();
  }
});
