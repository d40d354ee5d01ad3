// Debian's OpenSSH server for the `basin deploy` tests (test/support/sshd.ts starts a throwaway sshd on
// a free loopback port with its own host key and one authorized key). Idempotent.
import { ensureApt } from '../lib/apt.mjs';

export default async () => {
  ensureApt(['openssh-server', 'openssh-client']);
};
