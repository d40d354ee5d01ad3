// inbox against a real Dovecot (Debian's dovecot-imapd, one throwaway server for this file) through
// imapflow: the SDK contract kit, the sync engine (messages, attachments, CSV/JSON/Parquet attachments
// as tables, a second sync reading only new mail), a UIDVALIDITY change, a SIGKILL mid-sync, and
// errors that name what to fix without the password.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { mail, startDovecot } from '../../../test/support/dovecot.js';
import { killMidSync } from '../../../test/support/sync-kill.js';
import source from '../src/index.js';

const USER = { user: 'reports@example.test', password: 'imap-pa55word-x7' };
const imap = await startDovecot([USER]);
const apps: BasinApp[] = [];
after(async () => {
  for (const a of apps) await a.close();
  await imap.stop();
});
const env = { INBOX_PASSWORD: USER.password };
// the plain port offers STARTTLS with the server's self-signed certificate, hence verify_certificate: false
const base = { host: imap.host, port: imap.port, tls: false, verify_certificate: false, username: USER.user };

async function parquetBytes(rows: number): Promise<Buffer> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-pq-')), 'x.parquet');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT range AS id, 'sku' || range AS sku, range * 2.5 AS amount FROM range(${rows})) TO '${file}' (FORMAT parquet)`);
  c.closeSync();
  const bytes = fs.readFileSync(file);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return bytes;
}
const csv = (from: number, n: number) => `day,region,sales\n${Array.from({ length: n }, (_, i) => `2026-01-${String(((from + i) % 28) + 1).padStart(2, '0')},r${from + i},${(from + i) * 10}`).join('\n')}\n`;
const ndjson = (from: number, n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ order: from + i, paid: (from + i) % 2 === 0 })).join('\n') + '\n';

// --- the contract kit, on a folder of its own
await imap.append('Contract', [1, 2, 3].map((i) => mail({ subject: `contract ${i}`, text: `body ${i}`, attachments: i === 2 ? [{ filename: 'c.csv', contentType: 'text/csv', content: csv(1, 3) }] : [] })));
runSourceContract(source, { ...base, folders: ['Contract'] }, {
  env,
  failingConfig: { ...base, folders: ['Contract'], password_env: 'WRONG_PASSWORD' },
  async addData() {
    await imap.append('Contract', [mail({ subject: 'contract 4', text: 'late' })]);
  },
});

async function boot(dir: string) {
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  apps.push(app);
  return { app, engine: app.container.resolve<SyncEngine>('syncEngine'), store: app.container.resolve<any>('syncStore') };
}
const count = async (app: BasinApp, sql: string) => Number((await app.warehouse.query<{ n: number }>(sql))[0]!.n);

function project(name: string, cfg: Record<string, unknown>): string {
  const yml = Object.entries({ ...base, ...cfg })
    .map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  const dir = makeProject({ '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: ${name}\n    type: inbox\n    generic_config:\n${yml}\n`, '.env': `INBOX_PASSWORD=${USER.password}\n` });
  disableAuth(dir);
  return dir;
}

test('inbox through the sync engine: messages, attachments and CSV/JSON/Parquet tables; the second sync reads only new mail', async () => {
  const pq = await parquetBytes(40);
  await imap.append('Reports', [
    mail({ subject: 'Daily sales', text: 'Sales attached.\nRegards', attachments: [{ filename: 'sales-0105.csv', contentType: 'text/csv', content: csv(1, 5) }] }),
    mail({ subject: 'Orders', text: 'Orders as JSON lines', attachments: [{ filename: 'orders.jsonl', contentType: 'application/octet-stream', content: ndjson(1, 7) }] }),
    mail({ subject: 'Warehouse export', text: '', attachments: [{ filename: 'stock.parquet', contentType: 'application/vnd.apache.parquet', content: pq }, { filename: 'logo.png', contentType: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) }] }),
    mail({ subject: 'Plain note', text: 'Grüße aus Köln — no attachment', from: 'Anna <anna@example.test>' }),
    mail({ subject: 'Broken export', text: 'bad json', attachments: [{ filename: 'broken.json', contentType: 'application/json', content: '{"a": 1,' }] }),
  ]);
  const dir = project('mail', { folders: ['Reports'], attachment_tables: [{ table: 'sales', filename: 'sales-*.csv' }] });
  const b = await boot(dir);
  const first = await b.engine.run('mail', { trigger: 'cli' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  const rows = Object.fromEntries(first.tables.map((t) => [t.name, t.rows]));
  assert.deepEqual(rows, { messages: 5, attachments: 5, sales: 5, attachments_json: 7, attachments_parquet: 40 });
  const note = await b.app.warehouse.query<Record<string, unknown>>("SELECT from_address, from_name, body_text, attachment_count, seen, uid::INT AS uid FROM raw_mail.messages WHERE subject = 'Plain note'");
  assert.deepEqual(note[0], { from_address: 'anna@example.test', from_name: 'Anna', body_text: 'Grüße aus Köln — no attachment', attachment_count: 0, seen: false, uid: 4 });
  // typed columns from the files themselves, and each row names the message and part it came from
  const sales = await b.app.warehouse.query<Record<string, unknown>>('SELECT sum(sales)::INT AS s, any_value(f.source_file) AS f, typeof(any_value(day)) AS t FROM raw_mail.sales JOIN raw_mail._basin_files AS f ON f.file_id = _basin_file_id AND f.table_name = \'sales\'');
  assert.deepEqual(sales[0], { s: 150, f: `imap://reports%40example.test@127.0.0.1:${imap.port}/Reports;UIDVALIDITY=${sales[0]!.f!.toString().match(/UIDVALIDITY=(\d+)/)![1]}/;UID=1/;SECTION=2`, t: 'DATE' });
  assert.equal(await count(b.app, 'SELECT sum(amount)::INT AS n FROM raw_mail.attachments_parquet'), 1950);
  assert.equal(await count(b.app, 'SELECT count(*) FILTER (WHERE paid)::INT AS n FROM raw_mail.attachments_json'), 3);
  const atts = await b.app.warehouse.query<Record<string, unknown>>('SELECT filename, loaded_into, skipped_reason FROM raw_mail.attachments ORDER BY uid, part');
  assert.deepEqual(atts, [
    { filename: 'sales-0105.csv', loaded_into: 'sales', skipped_reason: null },
    { filename: 'orders.jsonl', loaded_into: 'attachments_json', skipped_reason: null },
    { filename: 'stock.parquet', loaded_into: 'attachments_parquet', skipped_reason: null },
    { filename: 'logo.png', loaded_into: null, skipped_reason: 'not CSV, JSON or Parquet' },
    { filename: 'broken.json', loaded_into: null, skipped_reason: atts[4]!.skipped_reason },
  ]);
  assert.match(String(atts[4]!.skipped_reason), /^not valid JSON/);

  // new mail: only it is read
  await imap.append('Reports', [mail({ subject: 'Daily sales 2', text: 'more', attachments: [{ filename: 'sales-0106.csv', contentType: 'text/csv', content: csv(6, 3) }] }), mail({ subject: 'hello', text: 'hi' })]);
  const second = await b.engine.run('mail', { trigger: 'cli' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  assert.deepEqual(Object.fromEntries(second.tables.map((t) => [t.name, t.rows])), { messages: 2, attachments: 1, sales: 3 }, 'rows loaded by this sync');
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_mail.attachments'), 6);
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_mail.sales'), 8);
  assert.equal(await count(b.app, 'SELECT count(DISTINCT uid)::INT AS n FROM raw_mail.messages'), 7);
  const third = await b.engine.run('mail', { trigger: 'cli' });
  assert.equal(third.status, 'succeeded', third.error ?? '');
  assert.deepEqual(third.tables, [], 'nothing new, nothing loaded');
});

test('inbox: body text from nested, quoted-printable, latin-1, base64 and HTML parts; a cut at max_body_bytes; a latin-1 CSV and a broken one', async () => {
  const alt = [
    'From: a@vendor.test', 'To: reports@example.test', 'Subject: nested', 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="m"', '',
    '--m', 'Content-Type: multipart/alternative; boundary="a"', '',
    '--a', 'Content-Type: text/plain; charset=iso-8859-1', 'Content-Transfer-Encoding: quoted-printable', '', 'Gr=FC=DFe, der Bericht ist =\r\nangeh=E4ngt.',
    '--a', 'Content-Type: text/html; charset=utf-8', '', '<p>HTML version</p>',
    '--a--',
    '--m', 'Content-Type: text/csv; charset=iso-8859-1; name="umsatz.csv"', 'Content-Disposition: attachment; filename="umsatz.csv"', 'Content-Transfer-Encoding: quoted-printable', '', 'stadt,summe\r\nK=F6ln,12\r\nM=FCnchen,30\r\n',
    '--m', 'Content-Type: text/csv; name="broken.csv"', 'Content-Disposition: attachment; filename="broken.csv"', '', 'a,b\r\n1,2\r\n3,4,5\r\n6,7\r\n',
    '--m--', '',
  ].join('\r\n');
  const html = ['From: b@vendor.test', 'Subject: html only', 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', '', Buffer.from('<html><body><p>Total: 5 &amp; more</p><script>x()</script></body></html>').toString('base64'), ''].join('\r\n');
  await imap.append('Bodies', [alt, html, mail({ subject: 'long', text: 'x'.repeat(50) })]);
  const ctx = createTestContext(source, { ...base, folders: ['Bodies'], max_body_bytes: 40 }, { env });
  const got = await collectRead(source, ctx, await source.discover(ctx), {});
  const files = got.items.filter((i) => i.kind === 'file');
  const rows = files.filter((f) => f.resource === 'messages').flatMap((f) => fs.readFileSync((f as { path: string }).path, 'utf8').trim().split('\n').map((l) => JSON.parse(l)));
  assert.deepEqual(rows.map((r) => [r.subject, r.body_text, r.body_truncated]), [
    ['nested', 'Grüße, der Bericht ist angehängt.', false],
    // the HTML is cut before its end (max_body_bytes), its text kept without the markup
    ['html only', 'Total: 5 & more', true],
    ['long', 'x'.repeat(40), true],
  ]);
  const csvFiles = files.filter((f) => f.resource === 'attachments_csv') as Array<{ path: string; malformedRows?: string }>;
  assert.equal(fs.readFileSync(csvFiles[0]!.path, 'utf8'), 'stadt,summe\r\nKöln,12\r\nMünchen,30\r\n', 'a latin-1 CSV is handed to DuckDB as UTF-8');
  assert.deepEqual(csvFiles.map((f) => f.malformedRows), [undefined, 'quarantine'], 'the broken CSV is read with its bad lines set aside; well-formed ones are loaded together');
  // through the engine the broken line goes to attachments_csv__rejects and the rest loads
  const dir = project('bodies', { folders: ['Bodies'] });
  const b = await boot(dir);
  const r = await b.engine.run('bodies');
  assert.equal(r.status, 'succeeded', r.error ?? '');
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_bodies.attachments_csv'), 4);
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_bodies.attachments_csv__rejects'), 1);
});

test('inbox: from, subject and start_date filters are applied by the server; later reads continue above the last UID', async () => {
  await imap.append('Filters', [
    mail({ subject: 'Daily report 1', text: 'a', from: 'Anna <anna@vendor.test>' }),
    mail({ subject: 'Daily report 2', text: 'b', from: 'bob@partner.test' }),
    mail({ subject: 'Lunch?', text: 'c', from: 'anna@vendor.test' }),
    mail({ subject: 'Daily report 3', text: 'd', from: 'carol@elsewhere.test' }),
  ]);
  const subjects = async (cfg: Record<string, unknown>, state: Record<string, Record<string, unknown>> = {}) => {
    const ctx = createTestContext(source, { ...base, folders: ['Filters'], ...cfg }, { env });
    const got = await collectRead(source, ctx, await source.discover(ctx), state);
    const rows = got.items.filter((i) => i.kind === 'file' && i.resource === 'messages').flatMap((f) => fs.readFileSync((f as { path: string }).path, 'utf8').trim().split('\n').map((l) => JSON.parse(l).subject as string));
    return { rows, state: got.state };
  };
  const first = await subjects({ from: ['anna@vendor.test', 'bob@partner.test'], subject: 'Daily report' });
  assert.deepEqual(first.rows, ['Daily report 1', 'Daily report 2']);
  assert.deepEqual((await subjects({ start_date: '2999-01-01' })).rows, [], 'nothing received since then');
  assert.equal((await subjects({ start_date: '2020-01-01' })).rows.length, 4);
  // the position moves past the messages the filters left out: they are not looked at again
  await imap.append('Filters', [mail({ subject: 'Daily report 4', text: 'e', from: 'bob@partner.test' })]);
  const next = await subjects({ from: ['anna@vendor.test', 'bob@partner.test'], subject: 'Daily report' }, first.state);
  assert.deepEqual(next.rows, ['Daily report 4']);
});

test('inbox: a changed UIDVALIDITY re-reads the folder and replaces the rows of the old numbering', async () => {
  await imap.append('Recreated', [1, 2, 3].map((i) => mail({ subject: `old ${i}`, text: 'x', attachments: [{ filename: `r${i}.csv`, contentType: 'text/csv', content: csv(i, 2) }] })));
  const dir = project('re', { folders: ['Recreated'] });
  const b = await boot(dir);
  assert.equal((await b.engine.run('re')).status, 'succeeded');
  const v1 = (b.store.state('re').messages.folders.Recreated as { uidvalidity: number }).uidvalidity;
  // the folder is deleted and created again (a restore, a server migration): new UIDVALIDITY, UIDs from 1
  const c = await imap.client();
  await c.mailboxDelete('Recreated');
  await c.mailboxCreate('Recreated');
  await c.logout();
  await imap.append('Recreated', [1, 2].map((i) => mail({ subject: `new ${i}`, text: 'y', attachments: [{ filename: `n${i}.csv`, contentType: 'text/csv', content: csv(10 + i, 4) }] })));
  const r = await b.engine.run('re');
  assert.equal(r.status, 'succeeded', r.error ?? '');
  const v2 = (b.store.state('re').messages.folders.Recreated as { uidvalidity: number }).uidvalidity;
  assert.notEqual(v2, v1);
  const subjects = await b.app.warehouse.query<{ subject: string; uidvalidity: number }>('SELECT subject, uidvalidity::BIGINT AS uidvalidity FROM raw_re.messages ORDER BY uid');
  assert.deepEqual(subjects.map((s) => s.subject), ['new 1', 'new 2']);
  assert.ok(subjects.every((s) => Number(s.uidvalidity) === v2));
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_re.attachments'), 2);
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_re.attachments_csv'), 8, 'only the new attachments rows');
});

test('inbox: a SIGKILL mid-sync keeps the previous tables and saved UIDs; the next sync loses and repeats nothing', async () => {
  const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => mail({ subject: `k${from + i}`, text: `m${from + i}`, attachments: (from + i) % 3 === 0 ? [{ filename: `k${from + i}.csv`, contentType: 'text/csv', content: csv(from + i, 2) }] : [] }));
  await imap.append('Killed', batch(1, 6));
  const dir = project('kill', { folders: ['Killed'], batch_size: 4 });
  let b = await boot(dir);
  assert.equal((await b.engine.run('kill')).status, 'succeeded');
  const stateBefore = b.store.state('kill');
  const before = { m: await count(b.app, 'SELECT count(*)::INT AS n FROM raw_kill.messages'), a: await count(b.app, 'SELECT count(*)::INT AS n FROM raw_kill.attachments_csv') };
  assert.deepEqual(before, { m: 6, a: 4 });
  await b.app.close();
  apps.splice(apps.indexOf(b.app), 1);

  // 20 new messages = 5 batches; the child is killed after two batches were read and checkpointed
  await imap.append('Killed', batch(7, 20));
  const held = await killMidSync(dir, 'kill', 'inbox', 2);
  assert.equal(held.states, 2);

  b = await boot(dir);
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_kill.messages'), before.m);
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_kill.attachments_csv'), before.a);
  assert.equal(await count(b.app, "SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '_basin_staging%'"), 0);
  assert.deepEqual(b.store.state('kill'), stateBefore);
  assert.equal(b.store.history('kill', 10).items[0].status, 'failed');
  const r = await b.engine.run('kill');
  assert.equal(r.status, 'succeeded', r.error ?? '');
  const after = await b.app.warehouse.query<Record<string, number>>('SELECT count(*)::INT AS n, count(DISTINCT uid)::INT AS d, min(uid)::INT AS lo, max(uid)::INT AS hi FROM raw_kill.messages');
  assert.deepEqual(after[0], { n: 26, d: 26, lo: 1, hi: 26 });
  // k3, k6, ... k24: 8 attachments of 2 rows each
  assert.equal(await count(b.app, 'SELECT count(*)::INT AS n FROM raw_kill.attachments_csv'), 16);
  assert.equal(await count(b.app, 'SELECT count(DISTINCT _basin_file_id)::INT AS n FROM raw_kill.attachments_csv'), 8);
});

test('inbox: a wrong password, an unreachable host, a missing folder and a missing variable say what to fix, never the password', async () => {
  const wrong = await source.check(createTestContext(source, { ...base, password_env: 'MAIL_PW' }, { env: { MAIL_PW: 'not-the-pa55word' } }));
  assert.equal(wrong.ok, false);
  assert.match(wrong.message ?? '', new RegExp(`127\\.0\\.0\\.1:${imap.port} refused the login of "reports@example\\.test".*Check username in the config and the password in the environment variable MAIL_PW`));
  const closed = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
  const down = await source.check(createTestContext(source, { ...base, port: closed }, { env }));
  assert.equal(down.ok, false);
  assert.match(down.message ?? '', new RegExp(`Could not reach the IMAP server 127\\.0\\.0\\.1:${closed} \\(ECONNREFUSED\\)\\. Check host, port and tls in the config`));
  const tls = await source.check(createTestContext(source, { ...base, tls: true }, { env }));
  assert.equal(tls.ok, false);
  assert.match(tls.message ?? '', /did not answer TLS .*Check host, port and tls in the config/);
  // implicit TLS on the IMAPS port: accepted with verify_certificate: false, refused by name otherwise
  const imaps = await source.check(createTestContext(source, { ...base, port: imap.tlsPort, tls: true }, { env }));
  assert.equal(imaps.ok, true, imaps.message);
  const selfSigned = await source.check(createTestContext(source, { ...base, port: imap.tlsPort, tls: true, verify_certificate: true }, { env }));
  assert.equal(selfSigned.ok, false);
  assert.match(selfSigned.message ?? '', new RegExp(`127\\.0\\.0\\.1:${imap.tlsPort}: the server certificate was not accepted .*set verify_certificate: false for a self-signed one`));
  const starttls = await source.check(createTestContext(source, { ...base, verify_certificate: true }, { env }));
  assert.match(starttls.message ?? '', /the server certificate was not accepted/, 'STARTTLS on the plain port verifies the certificate too');
  const folder = await source.check(createTestContext(source, { ...base, folders: ['Nope'] }, { env }));
  assert.match(folder.message ?? '', /has no folder "Nope"\. Check folders in the config/);
  const unset = await source.check(createTestContext(source, { ...base, password_env: 'NOT_SET_PW' }, { env: {} }));
  assert.match(unset.message ?? '', /NOT_SET_PW/);
  // and through the engine: the sync fails with the same message, the password nowhere in it
  const dir = project('bad', { password_env: 'MAIL_PW' });
  fs.writeFileSync(path.join(dir, '.env'), 'MAIL_PW=not-the-pa55word\n');
  const b = await boot(dir);
  const r = await b.engine.run('bad');
  assert.equal(r.status, 'failed');
  assert.match(r.error ?? '', /refused the login.*MAIL_PW/);
  for (const m of [wrong.message, down.message, tls.message, selfSigned.message, starttls.message, folder.message, unset.message, r.error]) {
    assert.doesNotMatch(m ?? '', /not-the-pa55word|imap-pa55word/);
  }
});
