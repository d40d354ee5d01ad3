import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBWarehouseClient, Warehouse } from '@basin/core';
import { tempDir, rmrf } from '@basin/test';
import path from 'node:path';
import { classifyColumn } from '../src/pii/classify.js';
import { maskValue } from '../src/pii/mask.js';
import { scanTable } from '../src/pii/scanner.js';
import { isCreditCard, isIban, isIpv4, isPhone, luhnValid } from '../src/pii/validators.js';
import { isUsSsn } from '../src/pii/national-ids.js';
import * as g from './fixtures.js';

const opts = { minMatchShare: 0.5, minConfidence: 0.5 };

test('validators accept checksummed values and refuse look-alikes', () => {
  const r = g.rng(1);
  for (let i = 0; i < 50; i++) {
    const c = g.cardNumber(r);
    assert.ok(isCreditCard(c), c);
    assert.ok(!isCreditCard(g.nonLuhn16(r)));
    assert.ok(isIban(g.iban(r)));
    assert.ok(isUsSsn(g.ssn(r)));
  }
  assert.ok(luhnValid('4111111111111111'));
  assert.ok(!luhnValid('4111111111111112'));
  assert.ok(isIban('GB82 WEST 1234 5698 7654 32'));
  assert.ok(!isIban('GB82 WEST 1234 5698 7654 33'));
  assert.ok(isIban('DE89370400440532013000'));
  assert.ok(!isIban('DE89370400440532013001'), 'one digit off fails mod-97');
  assert.ok(!isIban('DE8937040044053201300'), 'wrong length for DE');
  assert.ok(isIpv4('192.168.1.20'));
  for (const v of ['10.2.3.4-beta', '256.1.1.1', '1.2.3', '01.2.3.4.5']) assert.ok(!isIpv4(v), v);
  for (const v of ['666-12-3456', '000-12-3456', '912-12-3456', '123-00-4567', '123-45-0000']) assert.ok(!isUsSsn(v), v);
  assert.ok(isPhone('+49 30 1234 5678'));
  assert.ok(isPhone('(030) 1234-5678'));
  assert.ok(!isPhone('2024-05-01'));
  assert.ok(!isPhone('4000123456'), 'bare digits are not a phone without a name hint');
  assert.ok(isPhone('4155550132', true));
});

test('masking never returns the raw value and keeps only a recognisable shape', () => {
  assert.equal(maskValue('email', 'jane.doe@example.com'), 'j***@e***.com');
  assert.equal(maskValue('credit_card', '4111 1111 1111 1234'), '**** **** **** 1234');
  assert.equal(maskValue('national_id', '123-45-6789'), '***-**-**89');
  assert.equal(maskValue('ip_address', '192.168.1.20'), '192.***.***.***');
  assert.equal(maskValue('person_name', 'Jane Doe'), 'J*** D***');
  assert.equal(maskValue('iban', 'DE89370400440532013000'), 'DE** **** **** 00');
  assert.equal(maskValue('phone', '+49 30 1234 5678'), '+** ** **** **78');
});

test('a name hint without matching values is not a finding; a value match without a hint is', () => {
  const r = g.rng(3);
  assert.equal(classifyColumn('phone', Array.from({ length: 40 }, () => 'n/a-' + g.digits(r, 3)), opts), null);
  const v = classifyColumn('reply_to', Array.from({ length: 40 }, () => g.email(r)), opts);
  assert.equal(v?.entity_type, 'email');
  assert.equal(v?.method, 'value');
  const both = classifyColumn('customer_email', Array.from({ length: 40 }, () => g.email(r)), opts);
  assert.equal(both?.method, 'name+value');
  assert.ok(both!.confidence > v!.confidence);
  // with no sampled values, a date-of-birth column is found by its name
  assert.equal(classifyColumn('date_of_birth', [], opts)?.entity_type, 'date_of_birth');
});

/** expected entity per column; null = not PII (look-alikes included on purpose) */
const EXPECTED: Record<string, string | null> = {
  email: 'email',
  reply_to: 'email',
  contact_phone: 'phone',
  office_line: 'phone',
  card_number: 'credit_card',
  payment_instrument: 'credit_card',
  iban: 'iban',
  beneficiary: 'iban',
  client_ip: 'ip_address',
  seen_from: 'ip_address',
  ssn: 'national_id',
  full_name: 'person_name',
  account_owner: 'person_name',
  birth_date: 'date_of_birth',
  first_name: 'person_name',
  tracking_number: null,
  city: null,
  company: null,
  order_id: null,
  name: null,
  product_name: null,
  app_version: null,
  release: null,
  sku: null,
  amount: null,
  status: null,
  invoice_number: null,
  reference_code: null,
  lot_date: null,
  ratio: null,
  session_uuid: null,
  email_opt_in: null,
  phone_model: null,
  notes: null,
  zip_like_count: null,
};

async function generatedTable(dir: string): Promise<Warehouse> {
  const wh = new Warehouse({ dbPath: path.join(dir, 'w.db'), servingPath: path.join(dir, 's.db') });
  await wh.open();
  const r = g.rng(42);
  const rows = Array.from({ length: 500 }, (_, i) => ({
    email: g.email(r),
    reply_to: g.email(r),
    contact_phone: g.intlPhone(r),
    office_line: g.nationalPhone(r),
    card_number: g.cardNumber(r).replace(/(\d{4})(?=\d)/g, '$1 '),
    payment_instrument: g.cardNumber(r),
    iban: g.iban(r),
    beneficiary: g.iban(r),
    client_ip: g.ipv4(r),
    seen_from: g.ipv6(r),
    ssn: g.ssn(r),
    full_name: g.personName(r),
    account_owner: g.personName(r),
    birth_date: `19${50 + Math.floor(r() * 49)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`,
    first_name: g.pick(r, ['Anna', 'Ben', 'Chloe', 'Dmitri', 'Emma', 'Felix', 'Giulia', 'Hiroshi', 'Ines', 'Jonas']),
    tracking_number: g.nonLuhn16(r),
    city: g.pick(r, ['Paris', 'Berlin', 'Jackson', 'Austin', 'Madison', 'Lincoln', 'Florence', 'Chester']),
    company: g.pick(r, ['Johnson Controls', 'Jordan Brands', 'Smith & Sons', 'Acme Corp', 'Ford Motor Company', 'Taylor Made Golf', 'Kelly Services']),
    order_id: `ORD-2024-${String(i).padStart(6, '0')}`,
    name: g.pick(r, g.PRODUCTS),
    product_name: g.pick(r, g.PRODUCTS),
    app_version: `${Math.floor(r() * 20)}.${Math.floor(r() * 10)}.${Math.floor(r() * 10)}.${Math.floor(r() * 10)}-beta`,
    release: `v${Math.floor(r() * 5)}.${Math.floor(r() * 20)}.${Math.floor(r() * 50)}`,
    sku: `SKU-${g.digits(r, 5)}-${g.pick(r, ['S', 'M', 'L', 'XL'])}`,
    amount: Math.round(r() * 100000) / 100,
    status: g.pick(r, ['paid', 'pending', 'refunded']),
    invoice_number: g.digits(r, 10),
    reference_code: `AB${g.digits(r, 2)}${g.digits(r, 14)}`,
    lot_date: `2024-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`,
    ratio: String(r()),
    session_uuid: crypto.randomUUID(),
    email_opt_in: r() > 0.5,
    phone_model: g.pick(r, ['Pixel 8 Pro', 'iPhone 15', 'Galaxy S24', 'Fairphone 5']),
    notes: g.pick(r, ['Please deliver after 5pm', 'Gift wrap', 'Call before delivery', '']),
    zip_like_count: Math.floor(r() * 99999),
  }));
  // real columns are messy: blanks and placeholders in 15% of the PII values
  for (const row of rows as Array<Record<string, unknown>>) {
    for (const k of Object.keys(EXPECTED)) {
      if (!EXPECTED[k] || typeof row[k] !== 'string' || k === 'payment_instrument' || k === 'birth_date') continue;
      const x = r();
      if (x < 0.1) row[k] = '';
      else if (x < 0.15) row[k] = g.pick(r, ['unknown', 'n/a', '-', 'TBD']);
    }
  }
  await wh.write(async (c) => {
    await c.run('CREATE SCHEMA raw_shop');
    const cols = Object.keys(EXPECTED);
    const types: Record<string, string> = { amount: 'DOUBLE', email_opt_in: 'BOOLEAN', zip_like_count: 'INTEGER', birth_date: 'DATE', payment_instrument: 'BIGINT' };
    await c.run(`CREATE TABLE raw_shop.customers (${cols.map((k) => `"${k}" ${types[k] ?? 'VARCHAR'}`).join(', ')}, _basin_load_id VARCHAR)`);
    const app = await c.createAppender('customers', 'raw_shop');
    for (const row of rows) {
      for (const k of cols) {
        const v = (row as Record<string, unknown>)[k];
        if (k === 'amount') app.appendDouble(v as number);
        else if (k === 'email_opt_in') app.appendBoolean(v as boolean);
        else if (k === 'zip_like_count') app.appendInteger(v as number);
        else if (k === 'payment_instrument') app.appendBigInt(BigInt(v as string));
        else if (k === 'birth_date') app.appendVarchar(v as string);
        else app.appendVarchar(String(v));
      }
      app.appendVarchar('load-1');
      app.endRow();
    }
    app.closeSync();
  });
  return wh;
}

const dirs: string[] = [];
after(() => dirs.forEach(rmrf));

test('precision and recall on a generated table with known PII and look-alike columns are both >= 0.9', async () => {
  const dir = tempDir();
  dirs.push(dir);
  const wh = await generatedTable(dir);
  try {
    const found = await scanTable(new DuckDBWarehouseClient(wh), 'raw_shop', 'customers', 100, opts);
    const got = new Map(found.map((f) => [f.column, f.entity_type]));
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const wrong: string[] = [];
    for (const [col, expected] of Object.entries(EXPECTED)) {
      const actual = got.get(col) ?? null;
      if (actual && actual === expected) tp++;
      else if (actual !== expected) {
        if (actual) fp++;
        if (expected) fn++;
        wrong.push(`${col}: expected ${expected}, got ${actual}`);
      }
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    console.log(`PII detection on the generated table (${Object.keys(EXPECTED).length} columns, 100-row sample): precision=${precision.toFixed(3)} recall=${recall.toFixed(3)} tp=${tp} fp=${fp} fn=${fn}${wrong.length ? ` misses: ${wrong.join('; ')}` : ''}`);
    assert.ok(precision >= 0.9, `precision ${precision}: ${wrong.join('; ')}`);
    assert.ok(recall >= 0.9, `recall ${recall}: ${wrong.join('; ')}`);
    assert.ok(!got.has('_basin_load_id'));
    for (const f of found) {
      assert.ok(f.sample_count > 0 || f.method === 'name');
      assert.ok(f.masked_examples.length <= 3);
    }
    // no raw sampled value appears in any finding
    const raw = await wh.query<Record<string, string>>(`SELECT * EXCLUDE (_basin_load_id, amount, email_opt_in, zip_like_count) FROM raw_shop.customers`);
    const text = JSON.stringify(found);
    for (const row of raw) for (const [k, v] of Object.entries(row)) if (EXPECTED[k] && v && String(v).length > 4) assert.ok(!text.includes(String(v)), `raw value of ${k} leaked`);
  } finally {
    await wh.close();
  }
});

test('on a table bigger than pii_sample_read_rows the sample is drawn from a bounded read spread over the table', async () => {
  const dir = tempDir();
  dirs.push(dir);
  const wh = new Warehouse({ dbPath: path.join(dir, 'big.db'), servingPath: path.join(dir, 'big-serving.db') });
  await wh.open();
  try {
    await wh.write(async (c) => {
      await c.run('CREATE SCHEMA raw_big');
      await c.run(`CREATE TABLE raw_big.people AS SELECT i AS id, 'user' || i || '@example.com' AS contact_email, 'plan_' || (i % 5) AS plan FROM range(300000) r(i)`);
      await c.run('CHECKPOINT');
    });
    const client = new DuckDBWarehouseClient(wh);
    const estimated = (await client.listTables('raw_big')).find((t) => t.name === 'people')?.estimatedRows;
    assert.equal(estimated, 300000);
    const from = client.capabilities.sample('raw_big.people', 100, { estimatedRows: estimated, maxRowsRead: 10000 });
    // DuckDB pushes a system sample into the scan: it reads only the chosen vectors, not the whole table
    assert.match(from, /TABLESAMPLE system\(3\.333333%\)/);
    assert.equal(client.capabilities.sample('raw_big.people', 100, { estimatedRows: 5000, maxRowsRead: 10000 }), 'raw_big.people USING SAMPLE reservoir(100 ROWS) REPEATABLE (42)');
    const spread = await wh.query<{ n: bigint; lo: bigint; hi: bigint }>(`SELECT count(*) AS n, min(id) AS lo, max(id) AS hi FROM ${from}`);
    assert.equal(Number(spread[0]!.n), 100);
    assert.ok(Number(spread[0]!.lo) < 100000 && Number(spread[0]!.hi) > 200000, `sample spread over the table: ${spread[0]!.lo}..${spread[0]!.hi}`);
    const found = await scanTable(client, 'raw_big', 'people', 100, opts, 10000);
    const email = found.find((f) => f.column === 'contact_email');
    assert.equal(email?.entity_type, 'email');
    assert.equal(email?.sample_count, 100);
    assert.ok(!found.some((f) => f.column === 'plan'));
  } finally {
    await wh.close();
  }
});
