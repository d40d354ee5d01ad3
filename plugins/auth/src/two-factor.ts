import crypto from 'node:crypto';
import { createRequire } from 'node:module';

// otplib (and its preset's five packages) is required on the first 2FA call, not at every server start
const require = createRequire(import.meta.url);
const otp = (): typeof import('otplib').authenticator => (require('otplib') as typeof import('otplib')).authenticator;
import type { SqliteDb } from '@basin/core';
import { sha256, type SecretBox } from './crypto.js';

export const RECOVERY_CODE_COUNT = 8;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no look-alikes (0/o, 1/l/i)

/** TOTP (RFC 6238, 6 digits, 30 s, ±1 step, each step accepted once) on Basin's clock, and single-use recovery codes stored hashed. */
export class TwoFactor {
  constructor(private readonly db: SqliteDb, private readonly box: SecretBox, private readonly now: () => Date) {}

  newSecret(email: string): { secret: string; sealed: string; otpauth_uri: string } {
    const secret = otp().generateSecret(20);
    return { secret, sealed: this.box.seal(secret), otpauth_uri: otp().keyuri(email, 'Basin', secret) };
  }

  /**
   * Checks a TOTP code and consumes it: a code (its 30-second step) that was already accepted for
   * this user, or one older than it, is refused, so an observed code cannot be replayed.
   */
  useCode(userId: string, sealedSecret: string, code: string): boolean {
    if (!/^\d{6}$/.test(code)) return false;
    const epoch = this.now().getTime();
    const delta = otp().clone({ epoch, window: 1 }).checkDelta(code, this.box.open(sealedSecret));
    if (delta === null) return false;
    const step = Math.floor(epoch / 30_000) + delta;
    return (
      this.db
        .prepare('UPDATE auth_users SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)')
        .run(step, userId, step).changes === 1
    );
  }

  /** the current code for a sealed secret (tests and the CLI's self-check) */
  currentCode(secret: string): string {
    return otp().clone({ epoch: this.now().getTime() }).generate(secret);
  }

  /** replaces the user's recovery codes; returns the plaintext codes, shown once */
  regenerateRecoveryCodes(userId: string): string[] {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => randomCode());
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM auth_recovery_codes WHERE user_id = ?').run(userId);
      const ins = this.db.prepare('INSERT INTO auth_recovery_codes (user_id, code_hash) VALUES (?, ?)');
      for (const c of codes) ins.run(userId, hashCode(userId, c));
    })();
    return codes;
  }

  /** uses a recovery code once; false when unknown or already used */
  useRecoveryCode(userId: string, code: string): boolean {
    const normalized = code.trim().toLowerCase().replace(/\s+/g, '');
    return (
      this.db
        .prepare('UPDATE auth_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL')
        .run(this.now().toISOString(), userId, hashCode(userId, normalized)).changes === 1
    );
  }

  remainingRecoveryCodes(userId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM auth_recovery_codes WHERE user_id = ? AND used_at IS NULL').get(userId) as { n: number }).n;
  }

  clear(userId: string): void {
    this.db.prepare('DELETE FROM auth_recovery_codes WHERE user_id = ?').run(userId);
  }
}

function randomCode(): string {
  const s = Array.from({ length: 10 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

const hashCode = (userId: string, code: string): string => sha256(`${userId}:${code}`);
