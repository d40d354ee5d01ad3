// End to end with the real sync engine, local_files, real dbt and the catalog: breaking drift in one
// source pauses only that source's models; accepting it lets them run again; the catalog reads the
// manifest dbt wrote.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { asValue, ManualClock, type BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject, rmrf } from '@basin/test';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import transformPlugin, { ensureVenv, locateVenv, type AutoRunCoalescer } from '@basin/plugin-transform';
import governance from '@basin/plugin-governance';
import catalogPlugin from '../src/index.js';

let app: BasinApp;
let dir: string;
let engine: SyncEngine;
const clock = new ManualClock('2026-03-01T12:00:00Z');

const put = (src: string, file: string, content: string) => {
  fs.mkdirSync(path.join(dir, 'data', src), { recursive: true });
  fs.writeFileSync(path.join(dir, 'data', src, file), content);
};

before(async () => {
  const src = (name: string) => `  - name: ${name}\n    type: local_files\n    local_files:\n      directory: data/${name}\n`;
  dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n${src('shop')}${src('crm')}`,
    'tx/models/marts/shop_revenue.sql': "select status, count(*) as orders, sum(amount) as revenue from {{ ref('stg_shop__shop') }} group by status\n",
    'tx/models/marts/crm_stages.sql': "select stage, count(*) as deals from {{ ref('stg_crm__crm') }} group by stage\n",
  });
  disableAuth(dir);
  await ensureVenv(locateVenv(dir).dir);
  // the coalescing timer never fires by itself: the test flushes the auto run
  app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin, governance, transformPlugin, catalogPlugin], clock, overrides: { txTimer: asValue(() => () => {}) } });
  engine = app.container.resolve<SyncEngine>('syncEngine');
});
after(async () => {
  await (engine as any)?.idle?.();
  await app?.close();
  if (dir) rmrf(path.dirname(dir));
});

async function syncAndRun(): Promise<{ ran: string[] }> {
  for (const s of ['shop', 'crm']) {
    clock.advance(60_000);
    const r = await engine.run(s);
    assert.equal(r.status, 'succeeded', r.error ?? '');
  }
  await app.events.idle();
  const rec = await app.container.resolve<AutoRunCoalescer>('txAutoRun').flush();
  assert.ok(rec, 'an auto run was requested');
  assert.equal(rec.status, 'succeeded', rec.error ?? '');
  return { ran: rec.models.filter((m) => m.status === 'success').map((m) => m.name).sort() };
}

test('breaking drift pauses only that source\'s models until accepted; the catalog shows what dbt built', async () => {
  put('shop', 'a.csv', 'id,status,amount\n1,paid,10\n2,open,5\n3,paid,7.5\n');
  put('crm', 'a.csv', 'id,stage\n1,won\n2,lost\n');
  let { ran } = await syncAndRun();
  assert.deepEqual(ran, ['crm_stages', 'shop_revenue', 'stg_crm__crm', 'stg_shop__shop']);

  // shop's id turns into text: breaking drift on shop only
  fs.rmSync(path.join(dir, 'data', 'shop'), { recursive: true });
  put('shop', 'b.csv', 'id,status,amount\nA-1,paid,3\n');
  clock.advance(60_000);
  assert.equal((await engine.run('shop', { fullRefresh: true })).status, 'succeeded');
  put('crm', 'b.csv', 'id,stage\n3,won\n');
  ({ ran } = await syncAndRun());
  assert.deepEqual(ran, ['crm_stages', 'stg_crm__crm'], 'shop models are skipped, crm models run');
  const att = (await app.http.inject({ method: 'GET', url: '/api/governance/attention' })).json();
  assert.deepEqual(att.find((a: any) => a.source === 'shop').reasons, ['schema_drift']);

  // accept: the flag clears and shop's models run on the next sync
  assert.equal((await app.http.inject({ method: 'POST', url: '/api/governance/drift/shop/accept' })).statusCode, 200);
  ({ ran } = await syncAndRun());
  assert.deepEqual(ran, ['crm_stages', 'shop_revenue', 'stg_crm__crm', 'stg_shop__shop']);

  // the catalog reads the real manifest dbt wrote
  const models = (await app.http.inject({ method: 'GET', url: '/api/catalog/models' })).json();
  const layer = Object.fromEntries(models.map((m: any) => [m.name, m.layer]));
  assert.equal(layer['stg_shop__shop'], 'staging');
  assert.equal(layer['shop_revenue'], 'marts');
  assert.equal(layer['shop.shop'], 'raw');
  const detail = (await app.http.inject({ method: 'GET', url: '/api/catalog/models/shop_revenue' })).json();
  assert.match(detail.raw_sql, /ref\('stg_shop__shop'\)/);
  assert.match(detail.compiled_sql ?? '', /stg_shop__shop/);
  assert.deepEqual(detail.dependencies.map((d: any) => d.name), ['stg_shop__shop']);
  const revenue = detail.column_lineage?.columns.find((c: any) => c.column === 'revenue');
  assert.deepEqual(revenue?.sources.map((s: any) => `${s.name}.${s.column}`), ['stg_shop__shop.amount']);
  const impact = (await app.http.inject({ method: 'GET', url: '/api/catalog/impact/stg_shop__shop' })).json();
  assert.deepEqual([impact.total, impact.downstream[0].name], [1, 'shop_revenue']);
  const lineage = (await app.http.inject({ method: 'GET', url: '/api/catalog/lineage' })).json();
  const names = Object.fromEntries(lineage.nodes.map((n: any) => [n.id, n.name]));
  assert.ok(lineage.edges.some((e: any) => names[e.from] === 'shop.shop' && names[e.to] === 'stg_shop__shop'));
});
