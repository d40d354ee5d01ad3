// Dovecot's IMAP server binaries for the inbox source tests (test/support/dovecot.ts starts a throwaway
// server as the current user, with its own config, users file and maildirs in a temp dir). The Debian
// service is not used. Idempotent.
import { ensureApt } from '../lib/apt.mjs';

export default async () => {
  ensureApt(['dovecot-imapd']);
};
