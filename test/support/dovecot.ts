// A throwaway Dovecot IMAP server for tests: its own config, users file (passwd-file) and maildirs in a
// temp dir, IMAP with plaintext login on 127.0.0.1 (a plain port and an IMAPS port with a self-signed
// certificate, both free ports), stop() removes everything.
// Uses Debian's dovecot-imapd binaries (scripts/setup.d/60-dovecot.mjs installs them); the Debian
// service is not used. Run as root, mail is kept as `nobody` (Dovecot refuses mail access as UID 0).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort, logTail, trackServer } from './server-process.js';

export interface DovecotUser {
  user: string;
  password: string;
}

export interface DovecotServer {
  host: string;
  /** plain IMAP (STARTTLS offered) */
  port: number;
  /** implicit TLS (IMAPS) with a self-signed certificate for 127.0.0.1 */
  tlsPort: number;
  users: DovecotUser[];
  /** an imapflow session logged in as the user (the caller logs out) */
  client(user?: DovecotUser): Promise<ImapFlow>;
  /** IMAP APPEND of RFC 822 messages into a folder (created when missing); returns their UIDs */
  append(folder: string, messages: Array<string | Buffer>, user?: DovecotUser): Promise<number[]>;
  /**
   * Many messages at once, written straight into the folder's maildir (new/) the way a delivery agent
   * does: far faster than APPEND for benchmarks; Dovecot gives them UIDs when the folder is next read.
   */
  deliver(folder: string, messages: Array<string | Buffer>, user?: DovecotUser): void;
  stop(): Promise<void>;
}

const BIN = '/usr/sbin/dovecot';


function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('data', (d) => done(String(d).startsWith('* OK')));
    s.once('error', () => done(false));
  });
}


/** the maildir folder of a mailbox name (Maildir++: INBOX is the root, others `.Name`, `/` as `.`) */
function maildirOf(home: string, folder: string): string {
  return folder.toUpperCase() === 'INBOX' ? path.join(home, 'Maildir') : path.join(home, 'Maildir', `.${folder.replace(/\//g, '.')}`);
}

export async function startDovecot(users: DovecotUser[] = [{ user: 'reports@example.test', password: 'imap-pa55word' }]): Promise<DovecotServer> {
  if (!fs.existsSync(BIN)) throw new Error('Dovecot not found (/usr/sbin/dovecot); run `node scripts/setup.mjs dovecot`.');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-dovecot-'));
  fs.chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  const me = os.userInfo();
  // as root, the services drop to Debian's dovecot/dovenull accounts and mail belongs to nobody
  const mailUid = root ? 65534 : me.uid;
  const mailGid = root ? 65534 : me.gid;
  const internal = root ? 'dovecot' : me.username;
  const login = root ? 'dovenull' : me.username;
  const port = await freePort();
  const tlsPort = await freePort();
  // a self-signed certificate, so the TLS paths (implicit TLS, certificate refusal) are real too
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  fs.chmodSync(path.join(dir, 'key.pem'), 0o644);
  const home = (u: string) => path.join(dir, 'home', u.replace(/[^A-Za-z0-9@._-]/g, '_'));
  fs.writeFileSync(path.join(dir, 'users'), users.map((u) => `${u.user}:{PLAIN}${u.password}:${mailUid}:${mailGid}::${home(u.user)}::\n`).join(''), { mode: 0o644 });
  for (const u of users) {
    for (const sub of ['new', 'cur', 'tmp']) fs.mkdirSync(path.join(home(u.user), 'Maildir', sub), { recursive: true });
    if (root) execFileSync('chown', ['-R', `${mailUid}:${mailGid}`, home(u.user)]);
  }
  fs.mkdirSync(path.join(dir, 'run'));
  fs.mkdirSync(path.join(dir, 'state'));
  const conf = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(
    conf,
    `# throwaway test server (test/support/dovecot.ts)
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <${dir}/cert.pem
ssl_key = <${dir}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${internal}
default_login_user = ${login}
first_valid_uid = 1
mail_location = maildir:~/Maildir
mail_fsync = never
mail_max_userip_connections = 100
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/users
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort}
    ssl = yes
  }
}
service anvil {
  chroot =
}
service auth-worker {
  user = $default_internal_user
}
`,
  );
  const proc = spawn(BIN, ['-F', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const server = trackServer(proc, dir);
  await server.waitReady(() => greets(port), 100, () => new Error(`dovecot did not start: ${stderr}\n${logTail(path.join(dir, 'dovecot.log'))}`));
  const first = users[0]!;
  const client = async (u: DovecotUser = first) => {
    const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, doSTARTTLS: false, auth: { user: u.user, pass: u.password }, logger: false, disableAutoIdle: true });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  };
  return {
    host: '127.0.0.1',
    port,
    tlsPort,
    users,
    client,
    async append(folder, messages, u = first) {
      const c = await client(u);
      try {
        if (folder.toUpperCase() !== 'INBOX') await c.mailboxCreate(folder).catch(() => undefined);
        const uids: number[] = [];
        for (const m of messages) {
          const r = await c.append(folder, m, [], new Date());
          if (r && r.uid) uids.push(r.uid);
        }
        return uids;
      } finally {
        await c.logout();
      }
    },
    deliver(folder, messages, u = first) {
      const md = maildirOf(home(u.user), folder);
      for (const sub of ['new', 'cur', 'tmp']) fs.mkdirSync(path.join(md, sub), { recursive: true });
      const stamp = Math.floor(Date.now() / 1000);
      messages.forEach((m, i) => fs.writeFileSync(path.join(md, 'new', `${stamp}.M${i}P${process.pid}.basin-test`), m));
      if (root) execFileSync('chown', ['-R', `${mailUid}:${mailGid}`, path.join(home(u.user), 'Maildir')]);
    },
    stop: server.stop,
  };
}

/** An RFC 822 message; `attachments` become base64 parts of a multipart/mixed message. */
export function mail(o: { from?: string; to?: string; subject: string; text: string; date?: Date; messageId?: string; attachments?: Array<{ filename: string; contentType: string; content: string | Buffer }> }): string {
  const head = [
    `From: ${o.from ?? 'Reports Bot <bot@vendor.test>'}`,
    `To: ${o.to ?? 'reports@example.test'}`,
    `Subject: ${o.subject}`,
    `Date: ${(o.date ?? new Date('2026-01-05T10:00:00Z')).toUTCString()}`,
    `Message-ID: ${o.messageId ?? `<${Math.random().toString(36).slice(2)}@vendor.test>`}`,
    'MIME-Version: 1.0',
  ];
  if (!o.attachments?.length) return [...head, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', o.text, ''].join('\r\n');
  const b = `b-${Math.random().toString(36).slice(2)}`;
  const parts = [`--${b}`, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', o.text];
  for (const a of o.attachments) {
    const data = Buffer.isBuffer(a.content) ? a.content : Buffer.from(a.content);
    parts.push(`--${b}`, `Content-Type: ${a.contentType}; name="${a.filename}"`, `Content-Disposition: attachment; filename="${a.filename}"`, 'Content-Transfer-Encoding: base64', '', data.toString('base64').replace(/.{76}/g, '$&\r\n'));
  }
  parts.push(`--${b}--`, '');
  return [...head, `Content-Type: multipart/mixed; boundary="${b}"`, '', ...parts].join('\r\n');
}
