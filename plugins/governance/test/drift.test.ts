import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ManualClock, buildProgram, type BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject, rmrf } from '@basin/test';
import governance, { type Governance } from '../src/index.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmrf(path.dirname(d))));

async function boot(files: Record<string, string> = {}): Promise<{ app: BasinApp; gov: Governance; clock: ManualClock; dir: string }> {
  const dir = makeProject(files);
  disableAuth(dir);
  dirs.push(dir);
  const clock = new ManualClock('2026-03-01T00:00:00Z');
  const app = await bootApp(dir, { plugins: [governance], clock });
  return { app, gov: app.container.resolve<Governance>('governance'), clock, dir };
}

const sql = (app: BasinApp, s: string) => app.warehouse.write(async (c) => void (await c.run(s)));
const load = (gov: Governance, source: string, tables: string[], syncId: string) =>
  gov.afterLoad({ source, syncId, fullRefresh: false, tables: tables.map((name) => ({ name, schema: `raw_${source}`, rows: 1 })) });

test('drift state table: first sync saves a baseline, added columns are accepted, removed/retyped columns flag only that source, accept clears', async () => {
  const { app, gov, clock } = await boot();
  const events: Array<{ type: string; payload: any }> = [];
  app.events.onAny((e) => void events.push({ type: e.type, payload: e.payload }));
  try {
    await sql(app, `CREATE SCHEMA raw_shop; CREATE TABLE raw_shop.orders (id INTEGER, amount DOUBLE, note VARCHAR, _basin_load_id VARCHAR); INSERT INTO raw_shop.orders VALUES (1, 2.5, 'x', 'l1')`);
    await sql(app, `CREATE SCHEMA raw_crm; CREATE TABLE raw_crm.deals (id INTEGER, stage VARCHAR); INSERT INTO raw_crm.deals VALUES (1, 'won')`);

    // no baseline -> baseline saved, nothing reported
    await load(gov, 'shop', ['orders'], 's1');
    await load(gov, 'crm', ['deals'], 's2');
    let r = await app.http.inject({ method: 'GET', url: '/api/governance/schema-drift' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().total, 0);
    assert.deepEqual([...(await gov.attentionSources())], []);

    // Basin metadata columns never count as drift
    await sql(app, `ALTER TABLE raw_shop.orders ADD COLUMN _basin_loaded_at TIMESTAMP`);
    assert.equal((await gov.checkDrift('shop', 'raw_shop', 'orders', 's2b')).outcome, 'unchanged');

    // only column_added -> baseline updated automatically, event logged, no flag
    clock.advance(60_000);
    await sql(app, `ALTER TABLE raw_shop.orders ADD COLUMN currency VARCHAR`);
    await load(gov, 'shop', ['orders'], 's3');
    r = await app.http.inject({ method: 'GET', url: '/api/governance/schema-drift?source=shop' });
    assert.deepEqual(
      r.json().items.map((e: any) => [e.change_type, e.column, e.new_type, e.status, e.sync_id]),
      [['column_added', 'currency', 'VARCHAR', 'auto_accepted', 's3']],
    );
    assert.deepEqual(r.json().attention_sources, []);
    assert.equal(events.filter((e) => e.type === 'schema_drift_detected').length, 0);
    assert.equal((await gov.checkDrift('shop', 'raw_shop', 'orders', 's3b')).outcome, 'unchanged', 'the added column is part of the baseline now');

    // column_removed + type_changed -> attention flag on shop only, event emitted, report stored
    clock.advance(60_000);
    await sql(app, `ALTER TABLE raw_shop.orders DROP COLUMN note; ALTER TABLE raw_shop.orders ALTER amount TYPE VARCHAR`);
    await load(gov, 'shop', ['orders'], 's4');
    await load(gov, 'crm', ['deals'], 's5');
    await app.events.idle();
    assert.deepEqual([...(await gov.attentionSources())], ['shop']);
    const drift = events.filter((e) => e.type === 'schema_drift_detected');
    assert.equal(drift.length, 1);
    assert.equal(drift[0]!.payload.source, 'shop');
    assert.equal(drift[0]!.payload.table, 'orders');
    assert.deepEqual(drift[0]!.payload.changes.map((c: any) => c.change_type).sort(), ['column_removed', 'type_changed']);
    const tc = drift[0]!.payload.changes.find((c: any) => c.change_type === 'type_changed');
    assert.deepEqual([tc.old_type, tc.new_type], ['DOUBLE', 'VARCHAR']);

    r = await app.http.inject({ method: 'GET', url: '/api/governance/attention' });
    const att = r.json();
    assert.deepEqual(att.map((a: any) => a.source), ['shop']);
    assert.equal(att[0].schema_drift.flagged, true);
    assert.equal(att[0].schema_drift.pending_changes, 2);
    assert.equal(att[0].schema_drift.since, '2026-03-01T00:02:00.000Z');

    // a re-sync with the same drift does not repeat the event or the report
    await load(gov, 'shop', ['orders'], 's6');
    await app.events.idle();
    assert.equal(events.filter((e) => e.type === 'schema_drift_detected').length, 1);
    r = await app.http.inject({ method: 'GET', url: '/api/governance/schema-drift?source=shop&table=orders' });
    assert.equal(r.json().total, 3);
    assert.equal(r.json().items.filter((e: any) => e.status === 'pending').length, 2);

    // accept: re-reads the schema, saves it as baseline, clears the flag
    r = await app.http.inject({ method: 'POST', url: '/api/governance/drift/shop/accept' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().cleared, true);
    assert.equal(r.json().accepted_changes, 2);
    assert.deepEqual(r.json().tables[0].columns.map((c: any) => `${c.name}:${c.type}`), ['id:INTEGER', 'amount:VARCHAR', 'currency:VARCHAR']);
    assert.deepEqual([...(await gov.attentionSources())], []);
    assert.equal((await gov.checkDrift('shop', 'raw_shop', 'orders', 's7')).outcome, 'unchanged');
    r = await app.http.inject({ method: 'GET', url: '/api/governance/schema-drift?source=shop' });
    assert.ok(r.json().items.every((e: any) => e.status !== 'pending'));
    assert.ok(r.json().items.filter((e: any) => e.status === 'accepted').every((e: any) => e.resolved_at === '2026-03-01T00:02:00.000Z'));
  } finally {
    await app.close();
  }
});

test('accept validates the source name and answers 404 for an unknown source', async () => {
  const { app } = await boot();
  try {
    let r = await app.http.inject({ method: 'POST', url: '/api/governance/drift/nope/accept' });
    assert.equal(r.statusCode, 404);
    assert.equal(r.json().error.code, 'not_found');
    assert.equal(r.json().error.message, 'A schema baseline for source "nope" was not found.');
    r = await app.http.inject({ method: 'POST', url: `/api/governance/drift/${encodeURIComponent("x'; DROP TABLE gov_baselines; --")}/accept` });
    assert.equal(r.statusCode, 422);
    r = await app.http.inject({ method: 'GET', url: `/api/governance/schema-drift?source=${encodeURIComponent('a"b')}` });
    assert.equal(r.statusCode, 422);
  } finally {
    await app.close();
  }
});

test('sync failures appear in attention until the next successful sync', async () => {
  const { app } = await boot();
  try {
    await app.events.emit('sync_failed' as any, { source: 'shop', sync_id: 'f1', error: 'HTTP 500 from upstream', trigger: 'api' } as any);
    let att = (await app.http.inject({ method: 'GET', url: '/api/governance/attention' })).json();
    assert.deepEqual(att.map((a: any) => [a.source, a.reasons, a.sync_failure.sync_id]), [['shop', ['sync_failed'], 'f1']]);
    await app.events.emit('sync_completed' as any, { source: 'shop', sync_id: 'ok1', rows: 1, tables: [], duration_seconds: 1, trigger: 'api' } as any);
    att = (await app.http.inject({ method: 'GET', url: '/api/governance/attention' })).json();
    assert.deepEqual(att, []);
  } finally {
    await app.close();
  }
});

test('PII findings after a load: masked, overrides win, pii_detected once per new finding', async () => {
  const overrides = `overrides:
  - source: shop
    table: customers
    column: contact
    status: not_pii
    set_by: dpo@example.com
    reason: shared team inbox
    updated_at: 2026-02-01T00:00:00Z
  - source: shop
    table: customers
    column: loyalty_code
    status: pii
    set_by: dpo@example.com
    reason: links to a person
`;
  const { app, gov, dir } = await boot({ '.basin/pii-overrides.yml': overrides });
  const pii: any[] = [];
  app.events.on('pii_detected', (p) => void pii.push(p));
  try {
    await sql(app, `CREATE SCHEMA raw_shop; CREATE TABLE raw_shop.customers (id INTEGER, email VARCHAR, contact VARCHAR, loyalty_code VARCHAR, product VARCHAR)`);
    await sql(app, `INSERT INTO raw_shop.customers SELECT i, 'user' || i || '@example.com', 'team' || i || '@corp.test', 'L' || i, 'Widget ' || i FROM range(200) t(i)`);
    await load(gov, 'shop', ['customers'], 's1');
    await app.events.idle();
    let r = await app.http.inject({ method: 'GET', url: '/api/governance/pii?source=shop' });
    assert.equal(r.statusCode, 200);
    const items = r.json();
    assert.deepEqual(items.map((f: any) => [f.column, f.entity_type, f.status]), [
      ['email', 'email', 'detected'],
      ['loyalty_code', 'unspecified', 'confirmed'],
    ]);
    const email = items[0];
    assert.equal(email.sample_count, 100, 'default sample size');
    assert.equal(email.matched_share, 1);
    assert.ok(email.confidence >= 0.9);
    assert.ok(email.masked_examples.every((m: string) => /^u\*\*\*@e\*\*\*\.com$/.test(m)), JSON.stringify(email.masked_examples));
    // dismissed finding is kept but hidden unless asked for
    r = await app.http.inject({ method: 'GET', url: '/api/governance/pii?include_dismissed=true&table=customers' });
    assert.equal(r.json().find((f: any) => f.column === 'contact').status, 'not_pii');
    assert.equal(pii.length, 1);
    assert.deepEqual(pii[0].findings.map((f: any) => f.column), ['email'], 'the not_pii column is not announced');
    // a second load with the same findings announces nothing new
    await load(gov, 'shop', ['customers'], 's2');
    await app.events.idle();
    assert.equal(pii.length, 1);
    r = await app.http.inject({ method: 'GET', url: '/api/governance/pii/overrides' });
    assert.deepEqual(r.json().map((o: any) => [o.column, o.status, o.updated_at]), [
      ['contact', 'not_pii', '2026-02-01T00:00:00Z'],
      ['loyalty_code', 'pii', null],
    ]);
    // the overrides file is re-read: dropping the not_pii entry shows the finding again
    fs.writeFileSync(path.join(dir, '.basin/pii-overrides.yml'), 'overrides: []\n');
    r = await app.http.inject({ method: 'GET', url: '/api/governance/pii?source=shop' });
    assert.deepEqual(r.json().map((f: any) => f.column), ['contact', 'email']);
    // an invalid edit keeps the running overrides and is reported until fixed
    fs.writeFileSync(path.join(dir, '.basin/pii-overrides.yml'), 'overrides:\n  - source: shop\n    table: customers\n    column: email\n    status: maybe\n');
    r = await app.http.inject({ method: 'GET', url: '/api/governance/pii?source=shop' });
    assert.deepEqual(r.json().map((f: any) => f.column), ['contact', 'email']);
    const bad = ((await app.health()).governance as { pii_overrides_error: { file: string; message: string } | null }).pii_overrides_error;
    assert.equal(bad?.file, '.basin/pii-overrides.yml');
    assert.match(bad!.message, /overrides\/0\/status/);
    fs.writeFileSync(path.join(dir, '.basin/pii-overrides.yml'), 'overrides:\n  - source: shop\n    table: customers\n    column: email\n    status: not_pii\n');
    r = await app.http.inject({ method: 'GET', url: '/api/governance/pii?source=shop' });
    assert.deepEqual(r.json().map((f: any) => f.column), ['contact']);
    assert.equal(((await app.health()).governance as { pii_overrides_error: unknown }).pii_overrides_error, null);
    // nothing raw in the state store
    const stored = JSON.stringify(app.stateDb.prepare('SELECT * FROM gov_pii_findings').all());
    assert.ok(!/user\d+@example\.com/.test(stored) && !/team\d+@corp\.test/.test(stored));
  } finally {
    await app.close();
  }
});

test('the governance section sets the PII sample size', async () => {
  const dir = makeProject();
  disableAuth(dir);
  dirs.push(dir);
  fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\ngovernance:\n  pii_sample_rows: 20\n');
  const app2 = await bootApp(dir, { plugins: [governance] });
  try {
    await sql(app2, `CREATE SCHEMA raw_a; CREATE TABLE raw_a.t (email VARCHAR); INSERT INTO raw_a.t SELECT 'x' || i || '@example.com' FROM range(500) t(i)`);
    const g2 = app2.container.resolve<Governance>('governance');
    const found = await g2.scanPii('a', 'raw_a', 't', null, { force: true });
    assert.equal(found[0]!.sample_count, 20);
  } finally {
    await app2.close();
  }
});

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((res) => srv.close(res));
  return port;
}

const setPort = (dir: string, port: number) => {
  const f = path.join(dir, '.basin/project.yml');
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/port: \d+/, `port: ${port}`));
};

async function runCli(args: string[]): Promise<string> {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (c) => chunks.push(String(c)));
  const program = buildProgram([governance], { stdout: out, stderr: out });
  program.exitOverride();
  await program.parseAsync(args, { from: 'user' });
  return chunks.join('');
}

test('basin drift report and accept work without a running server (booting the project)', async () => {
  const { app, gov, dir } = await boot();
  await sql(app, `CREATE SCHEMA raw_shop; CREATE TABLE raw_shop.orders (id INTEGER, note VARCHAR)`);
  await load(gov, 'shop', ['orders'], 's1');
  await sql(app, `ALTER TABLE raw_shop.orders DROP COLUMN note`);
  await load(gov, 'shop', ['orders'], 's2');
  await app.close();
  setPort(dir, await freePort());
  const report = await runCli(['drift', 'report', '--project', dir]);
  assert.match(report, /Sources paused by breaking drift: shop/);
  assert.match(report, /shop\.orders {2}column_removed note \(was VARCHAR\) {2}\[pending\]/);
  assert.match(await runCli(['drift', 'accept', 'shop', '--project', dir]), /attention flag cleared/);
  assert.deepEqual(JSON.parse(await runCli(['drift', 'report', '--project', dir, '--json'])).attention_sources, []);
});

test('basin drift accept goes through the API when the server runs (the warehouse has one writer)', async () => {
  const { app, gov, dir } = await boot();
  try {
    await sql(app, `CREATE SCHEMA raw_shop; CREATE TABLE raw_shop.orders (id INTEGER, note VARCHAR)`);
    await load(gov, 'shop', ['orders'], 's1');
    await sql(app, `ALTER TABLE raw_shop.orders ALTER id TYPE BIGINT`);
    await load(gov, 'shop', ['orders'], 's2');
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    setPort(dir, Number(new URL(url).port));
    const report = await runCli(['drift', 'report', '--project', dir]);
    assert.match(report, /type_changed id \(INTEGER -> BIGINT\)/);
    assert.match(await runCli(['drift', 'accept', 'shop', '--project', dir]), /1 pending change\(s\)\); attention flag cleared/);
    assert.deepEqual([...(await gov.attentionSources())], [], 'the running server itself cleared the flag');
  } finally {
    await app.close();
  }
});

test('a column missing from the newly loaded data is column_removed although older rows keep it in the table', async () => {
  const { app, gov } = await boot();
  try {
    await sql(app, `CREATE SCHEMA raw_shop; CREATE TABLE raw_shop.orders (id INTEGER, amount DOUBLE, note VARCHAR, _basin_file_id BIGINT)`);
    const incremental = (syncId: string, loaded: string[] | null) =>
      gov.afterLoad({ source: 'shop', syncId, fullRefresh: false, tables: [{ name: 'orders', schema: 'raw_shop', rows: 1, loaded_columns: loaded }] });
    await incremental('s1', ['id', 'amount', 'note', '_basin_file_id']);
    // the next file has no `amount`: the table keeps the column (older rows), the source lost it
    await incremental('s2', ['id', 'note', '_basin_file_id']);
    let r = (await app.http.inject({ method: 'GET', url: '/api/governance/schema-drift?source=shop' })).json();
    assert.deepEqual(r.items.map((e: any) => [e.change_type, e.column, e.old_type, e.status, e.sync_id]), [['column_removed', 'amount', 'DOUBLE', 'pending', 's2']]);
    assert.deepEqual(r.attention_sources, ['shop']);
    // a sync that loaded nothing into the table says nothing about its schema
    await incremental('s3', null);
    assert.equal((await app.http.inject({ method: 'GET', url: '/api/governance/schema-drift?source=shop' })).json().total, 1);
    // accepting takes the loaded schema as the baseline, so the next load of the same files is unchanged
    const acc = (await app.http.inject({ method: 'POST', url: '/api/governance/drift/shop/accept' })).json();
    assert.deepEqual(acc.tables[0].columns.map((c: any) => c.name), ['id', 'note']);
    await incremental('s4', ['id', 'note', '_basin_file_id']);
    r = (await app.http.inject({ method: 'GET', url: '/api/governance/schema-drift?source=shop' })).json();
    assert.equal(r.total, 1);
    assert.deepEqual(r.attention_sources, []);
  } finally {
    await app.close();
  }
});

test('a database attached to the warehouse (the serving-copy publish attaches one) does not double the columns drift reads', async () => {
  const { app, gov, dir } = await boot();
  try {
    await sql(app, `CREATE SCHEMA raw_shop; CREATE TABLE raw_shop.orders (id INTEGER, amount DOUBLE)`);
    await load(gov, 'shop', ['orders'], 's1');
    const other = path.join(dir, 'data', 'other.db');
    await sql(app, `ATTACH '${other}' AS other_db; CREATE SCHEMA other_db.raw_shop; CREATE TABLE other_db.raw_shop.orders (id INTEGER, amount DOUBLE)`);
    try {
      assert.equal((await gov.checkDrift('shop', 'raw_shop', 'orders', 's2')).outcome, 'unchanged');
      const r = await app.http.inject({ method: 'POST', url: '/api/governance/drift/shop/accept' });
      assert.deepEqual(r.json().tables[0].columns.map((c: any) => c.name), ['id', 'amount']);
    } finally {
      await sql(app, 'DETACH other_db');
    }
  } finally {
    await app.close();
  }
});
