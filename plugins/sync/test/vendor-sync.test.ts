// A vendor source (stripe, on the SDK's declarative REST runtime) through the real sync engine
// against a local Stripe fake: typed columns with nested objects flattened, a field appearing
// mid-stream becomes a column, a second sync asks only for newer records, and a SIGKILL in the
// middle of a sync leaves the previous table and cursor intact.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import sourcesPlugin from '@basin/plugin-sources';
import { bearerToken, FakeVendor, type FakeRequest } from '@basin/sdk/testkit';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import syncPlugin, { type SyncEngine } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const KEY = 'sk_test_51VendorSyncKey9876';
const T0 = 1_717_200_000;

// customers newest first, as Stripe lists them; an index by id for starting_after
let sorted: Record<string, unknown>[] = [];
let index = new Map<string, number>();
function reindex(fake: FakeVendor): void {
  sorted = [...fake.table('customers')].sort((a, b) => Number(b.created) - Number(a.created));
  index = new Map(sorted.map((r, i) => [String(r.id), i]));
}
function list(req: FakeRequest) {
  const limit = Math.min(100, Number(req.query.get('limit') ?? 10));
  const gte = req.query.get('created[gte]');
  const after = req.query.get('starting_after');
  let from = after ? index.get(after)! + 1 : 0;
  let end = sorted.length;
  if (gte) end = sorted.findIndex((r) => Number(r.created) < Number(gte));
  if (end < 0) end = sorted.length;
  from = Math.min(from, end);
  return { body: { object: 'list', url: '/v1/customers', has_more: from + limit < end, data: sorted.slice(from, Math.min(end, from + limit)) } };
}

const fake = new FakeVendor({ routes: { 'GET /v1/customers': list }, authorize: (req) => bearerToken(req) === KEY });
await fake.start();
after(() => fake.stop());

const customer = (i: number, extra: Record<string, unknown> = {}) => ({ id: `cus_${String(i).padStart(7, '0')}`, object: 'customer', created: T0 + i, email: `c${i}@example.com`, balance: i, address: { city: 'Berlin', postal_code: '10115' }, metadata: {}, ...extra });

const sourcesYml = (url: string) => `version: "1.0"\nsources:\n  - name: pay\n    type: stripe\n    stripe:\n      base_url: ${url}\n      endpoints: [customers]\n`;

async function boot(dir: string) {
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<any>('syncStore') };
}

describe('a vendor source through the sync engine', () => {
  const dir = makeProject({ '.basin/sources.yml': sourcesYml(fake.url), '.env': `STRIPE_SECRET_KEY=${KEY}\n` });
  disableAuth(dir);

  it('loads typed, flattened columns; a field added mid-stream becomes a column; the next sync reads only newer records', async () => {
    // 250 customers; the oldest 150 (later pages, newest first) carry a field the first page lacks
    for (let i = 0; i < 250; i++) fake.table('customers').push(customer(i, i < 150 ? { tax_exempt: 'none' } : {}));
    reindex(fake);
    const b = await boot(dir);
    try {
      const r = await b.engine.run('pay');
      assert.equal(r.status, 'succeeded', r.error ?? '');
      assert.equal(r.rows, 250);
      const cols = await b.app.warehouse.query<{ column_name: string; data_type: string }>("SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'raw_pay' AND table_name = 'customers'");
      const type = Object.fromEntries(cols.map((c) => [c.column_name, c.data_type]));
      assert.equal(type.created, 'BIGINT');
      assert.equal(type.address__city, 'VARCHAR');
      assert.equal(type.tax_exempt, 'VARCHAR');
      assert.ok(!('metadata' in type), 'an empty object adds no column');
      const n = await b.app.warehouse.query<{ with: number; without: number }>("SELECT count(tax_exempt)::INT AS with, count(*) FILTER (WHERE tax_exempt IS NULL)::INT AS without FROM raw_pay.customers");
      assert.deepEqual(n[0], { with: 150, without: 100 });

      fake.table('customers').push(customer(1000));
      reindex(fake);
      const mark = fake.requests.length;
      const second = await b.engine.run('pay');
      assert.equal(second.status, 'succeeded', second.error ?? '');
      const asked = fake.since(mark);
      assert.ok(asked.length > 0 && asked.every((q) => Number(q.query.get('created[gte]')) === T0 + 249), 'asked from the cursor on');
      const total = await b.app.warehouse.query<{ n: number }>('SELECT count(*)::INT AS n FROM raw_pay.customers');
      assert.equal(total[0]!.n, 251);
    } finally {
      await b.app.close();
    }
  });

  it('a SIGKILL mid-sync leaves the previous table and the cursor intact', async () => {
    let b = await boot(dir);
    const stateBefore = b.store.state('pay');
    const countBefore = (await b.app.warehouse.query<{ n: number }>('SELECT count(*)::INT AS n FROM raw_pay.customers'))[0]!.n;
    await b.app.close();

    // a full refresh of 130k customers: a full batch (122,880 rows) reaches staging, then Stripe stops answering
    fake.empty();
    for (let i = 0; i < 130_000; i++) fake.table('customers').push(customer(10_000 + i));
    reindex(fake);
    fake.holdWhen((req) => (index.get(req.query.get('starting_after') ?? '') ?? 0) >= 125_000);
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'support/sync-child.ts'), dir, 'pay'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('STAGED') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    fake.clearFaults();

    b = await boot(dir);
    try {
      const got = await b.app.warehouse.query<{ n: number }>('SELECT count(*)::INT AS n FROM raw_pay.customers');
      assert.equal(got[0]!.n, countBefore);
      const stg = await b.app.warehouse.query<{ n: number }>("SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'");
      assert.equal(stg[0]!.n, 0);
      assert.deepEqual(b.store.state('pay'), stateBefore);
      assert.equal(b.store.history('pay', 10).items[0].status, 'failed');
    } finally {
      await b.app.close();
    }
  });
});
