import { SourceError, type SourceContext } from '@basin/sdk';
import type { ImapFlow } from 'imapflow';
import { portOf, type InboxConfig } from './config.js';

/** host:port, for messages (never the user's password) */
export function where(cfg: InboxConfig): string {
  return `${cfg.host}:${portOf(cfg)}`;
}

/** An IMAP session for the config, logged in; the password comes from the named variable and is never logged. */
export async function connect(ctx: SourceContext<InboxConfig>): Promise<ImapFlow> {
  const cfg = ctx.config;
  const pass = ctx.secret(cfg.password_env);
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: cfg.host,
    port: portOf(cfg),
    secure: cfg.tls,
    auth: { user: cfg.username, pass },
    tls: { rejectUnauthorized: cfg.verify_certificate },
    // imapflow's logger would write the whole session to stdout; the source logs through ctx.log
    logger: false,
    disableAutoIdle: true,
    // BODY[] rather than BINARY[]: the text of part 1 can be asked for in the same FETCH as the
    // metadata, whatever part 1 is (BINARY refuses multiparts); the transfer encoding is decoded here
    disableBinary: true,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 120_000,
    clientInfo: { name: 'Basin' },
  });
  // a dropped connection is reported by the command that was waiting on it; this only keeps the
  // emitter from turning it into an uncaught exception
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    client.close();
    throw describeError(e, cfg);
  }
  return client;
}

/** Ends the session politely, or drops it when the server does not answer. */
export async function disconnect(client: ImapFlow): Promise<void> {
  try {
    if (client.usable) await Promise.race([client.logout(), new Promise((r) => setTimeout(r, 2_000).unref())]);
  } catch {
    // already gone
  } finally {
    client.close();
  }
}

/** An imapflow, TLS or network error as a SourceError that says what to fix, without the password. */
export function describeError(e: unknown, cfg: InboxConfig, folder?: string): SourceError {
  if (e instanceof SourceError) return e;
  const err = e as { code?: string; message?: string; authenticationFailed?: boolean; serverResponseCode?: string; responseText?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  if (err.authenticationFailed || err.serverResponseCode === 'AUTHENTICATIONFAILED') {
    return new SourceError(
      'auth_failed',
      `${where(cfg)} refused the login of "${cfg.username}"${err.responseText ? ` (${err.responseText})` : ''}. Check username in the config and the password in the environment variable ${cfg.password_env} (an app password if the account has two-factor sign-in).`,
      { variables: [cfg.password_env] },
    );
  }
  if (/^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|CONNECT_TIMEOUT|GREETING_TIMEOUT|ClosedAfterConnectText|ClosedAfterConnectTLS)$/.test(code)) {
    const hint = code.startsWith('ClosedAfterConnect') || code === 'GREETING_TIMEOUT' ? ' (it did not answer like an IMAP server: check port and tls)' : '';
    return new SourceError('connection_failed', `Could not reach the IMAP server ${where(cfg)} (${code})${hint}. Check host, port and tls in the config.`, { code });
  }
  if (/^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST)/.test(code)) {
    return new SourceError('connection_failed', `${where(cfg)} did not answer TLS (${code}): it is probably a plain IMAP port. Check host, port and tls in the config (tls: false for port 143).`, { code });
  }
  if (/certificate|self[- ]signed|CERT_|UNABLE_TO_VERIFY/i.test(`${code} ${err.message ?? ''}`)) {
    return new SourceError('tls_failed', `${where(cfg)}: the server certificate was not accepted (${err.message ?? code}). Fix the certificate, or set verify_certificate: false for a self-signed one.`, { code });
  }
  if (folder && (err.serverResponseCode === 'NONEXISTENT' || code === 'NotFound' || /doesn't exist|does not exist|not found|unknown mailbox/i.test(err.responseText ?? ''))) {
    return new SourceError('not_found', `${where(cfg)} has no folder "${folder}". Check folders in the config (names are case-sensitive except INBOX; sub-folders use the server's separator, e.g. Reports/Daily).`, { folder });
  }
  const text = err.responseText ?? err.message ?? String(e);
  return new SourceError('connection_failed', `${where(cfg)}${folder ? ` (folder ${folder})` : ''}: ${code ? `${code}: ` : ''}${text}`);
}
