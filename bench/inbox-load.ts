// inbox load speed (not a test): N messages (one in 50 with a small CSV attachment) in a throwaway
// Dovecot (maildir, IMAPS on 127.0.0.1 with a self-signed certificate), read bare through imapflow (one UID FETCH of the whole
// folder: envelope, flags, dates, size, structure and the first text part, nothing done with them) and
// synced by Basin into DuckDB (messages, attachments, the CSV rows), same process, same folder.
// Prints messages/s and the ratio. 1M messages is too many for IMAP here; the default 20,000 runs
// in well under a minute.
//   node --conditions=development --import tsx bench/inbox-load.ts [messages=20000]
import fs from 'node:fs';
import path from 'node:path';
import { disableAuth, makeProject } from '@basin/test';
import { ImapFlow } from 'imapflow';
import { mail, startDovecot } from '../test/support/dovecot.js';
import { openProject } from './sync-common.js';

const total = Number(process.argv[2] ?? 20_000);
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const USER = { user: 'bench@example.test', password: 'bench-pa55word' };
const imap = await startDovecot([USER]);
try {
  const body = 'Hello,\n\nthe numbers of today are attached or below. '.repeat(8);
  const messages = Array.from({ length: total }, (_, i) =>
    mail({
      subject: `Report ${i + 1}`,
      text: `${body}\nRow ${i + 1}`,
      date: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
      messageId: `<bench-${i + 1}@vendor.test>`,
      attachments: i % 50 === 0 ? [{ filename: `sales-${i}.csv`, contentType: 'text/csv', content: `day,region,sales\n${Array.from({ length: 20 }, (_, j) => `2024-01-01,r${j},${i + j}`).join('\n')}\n` }] : [],
    }),
  );
  imap.deliver('Bench', messages);
  // Dovecot indexes new maildir files on the first SELECT: done once here, outside both timings
  const warm = await imap.client(USER);
  await warm.mailboxOpen('Bench');
  await warm.fetchAll('1:*', { uid: true, flags: true });
  await warm.logout();

  let t0 = performance.now();
  // both sides over implicit TLS (the IMAPS port, as with a real provider's 993)
  const c = new ImapFlow({ host: '127.0.0.1', port: imap.tlsPort, secure: true, tls: { rejectUnauthorized: false }, auth: { user: USER.user, pass: USER.password }, logger: false, disableAutoIdle: true });
  await c.connect();
  await c.mailboxOpen('Bench', { readOnly: true });
  let n = 0;
  for await (const m of c.fetch('1:*', { uid: true, envelope: true, flags: true, internalDate: true, size: true, bodyStructure: true, bodyParts: ['1'] }, { uid: true })) if (m.uid) n++;
  await c.logout();
  const bare = performance.now() - t0;

  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: bench\n    type: inbox\n    generic_config:\n      host: 127.0.0.1\n      port: ${imap.tlsPort}\n      tls: true\n      verify_certificate: false\n      username: ${USER.user}\n      folders: [Bench]\n`,
    '.env': `INBOX_PASSWORD=${USER.password}\n`,
  });
  disableAuth(dir);
  const p = await openProject(dir);
  t0 = performance.now();
  const r = await p.engine.run('bench');
  const basin = performance.now() - t0;
  await p.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
  const loaded = Object.fromEntries(r.tables.map((t) => [t.name, t.rows]));
  if (n !== total || loaded.messages !== total) throw new Error(`read ${n} bare and ${loaded.messages} through Basin, expected ${total}`);
  console.log(
    `inbox ${total.toLocaleString()} messages (Dovecot maildir, ${total / 50} CSV attachments): bare imapflow FETCH ${rate(n, bare).toLocaleString()} messages/s (${(bare / 1000).toFixed(1)} s); ` +
      `Basin sync ${rate(total, basin).toLocaleString()} messages/s (${(basin / 1000).toFixed(1)} s; tables ${JSON.stringify(loaded)}); Basin / bare = ${(bare / basin).toFixed(2)}`,
  );
} finally {
  await imap.stop();
}
