// Google Sheets API v4 as documented (developers.google.com/sheets/api/reference/rest:
// spreadsheets.values.get GET /v4/spreadsheets/{id}/values/{range}?valueRenderOption=
// {"range","majorDimension":"ROWS","values":[[...]]} with trailing empty cells dropped; OAuth 2.0
// for service accounts: a JWT-bearer assertion at the key's token_uri; 401 UNAUTHENTICATED).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, collectRead, createTestContext, FakeVendor, fakeServiceAccount, runVendorSuite } from '@basin/sdk/testkit';
import source, { rangeTable, rowsToRecords, spreadsheetId } from '../src/index.js';

const SHEET = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
let account: ReturnType<typeof fakeServiceAccount>;

const fake = new FakeVendor({
  routes: {
    'POST /token': (req, f) => account.tokenRoute(req, f),
    [`GET /v4/spreadsheets/${SHEET}`]: () => ({ body: { spreadsheetId: SHEET, properties: { title: 'Budget' }, sheets: [{ properties: { title: 'Sheet1' } }] } }),
    [`GET /v4/spreadsheets/${SHEET}/values/:range`]: (req, f) => {
      if (req.query.get('valueRenderOption') !== 'UNFORMATTED_VALUE') return { status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT' } } };
      const values = f.table(req.params.range!).map((r) => r.cells as unknown[]);
      return { body: { range: `${req.params.range}!A1:Z${values.length}`, majorDimension: 'ROWS', ...(values.length ? { values } : {}) } };
    },
  },
  public: (req) => req.path === '/token',
  authorize: (req) => bearerToken(req) === account.accessToken,
  unauthorized: () => ({ status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } }),
});
await fake.start();
after(() => fake.stop());
account = fakeServiceAccount(`${fake.url}/token`, 'https://www.googleapis.com/auth/spreadsheets.readonly');

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, spreadsheet_url_or_id: `https://docs.google.com/spreadsheets/d/${SHEET}/edit#gid=0`, range_names: ['Sheet1', 'Costs'] }),
  resources: ['sheet1', 'costs'],
  env: { GOOGLE_SHEETS_CREDENTIALS: account.keyJson },
  secretEnv: 'GOOGLE_SHEETS_CREDENTIALS',
  seed() {
    fake.table('Sheet1').push({ cells: ['id', 'name', 'amount', 'paid'] });
    for (let i = 0; i < 300; i++) fake.table('Sheet1').push({ cells: [i + 1, `row ${i}`, i * 1.5, i % 2 === 0] });
    fake.table('Costs').push({ cells: ['month', 'cost'] }, { cells: ['2024-01', 100] });
  },
  addFieldMidStream() {
    // a value typed into a column without a header, from row 200 on
    for (const r of fake.table('Sheet1').slice(200)) (r.cells as unknown[]).push('late');
    return { resource: 'sheet1', column: 'col_5' };
  },
  missingRequired: { config: { spreadsheet_url_or_id: SHEET }, path: '/range_names' },
});

test('google_sheets: ids from URLs, range names as tables, header rows and blank cells', () => {
  assert.equal(spreadsheetId(`https://docs.google.com/spreadsheets/d/${SHEET}/edit`), SHEET);
  assert.equal(rangeTable("'Q1 Sales'!A1:D"), 'q1_sales_a1_d');
  assert.deepEqual(rowsToRecords([['a', '', 'c'], [1, 2], [], ['', ''], [4, 5, 6, 7]]), [
    { a: 1, col_2: 2, c: null },
    { a: 4, col_2: 5, c: 6, col_4: 7 },
  ]);
});

test('google_sheets: latest_only replaces, append_only appends; scd_type2 is refused at config time', async () => {
  const base = { spreadsheet_url_or_id: SHEET, range_names: ['Sheet1'] };
  const ctx = (dedup: string) => createTestContext(source, { ...base, base_url: fake.url, deduplication: dedup }, { env: { GOOGLE_SHEETS_CREDENTIALS: account.keyJson } });
  assert.equal((await source.discover(ctx('latest_only')))[0]!.writeDisposition, 'replace');
  assert.equal((await source.discover(ctx('append_only')))[0]!.writeDisposition, 'append');
  assert.deepEqual(source.validateConfig!({ ...base, deduplication: 'scd_type2' } as never).map((p) => p.path), ['/deduplication']);
  fake.empty();
  fake.table('Sheet1').push({ cells: ['x'] }, { cells: [1] });
  const r = await collectRead(source, ctx('latest_only'), []);
  assert.deepEqual(r.records.sheet1, [{ x: 1 }]);
});
