import type { SqliteDb } from '@basin/core';
import { normalizeEmail } from './users.js';

interface AttemptRow {
  ip: string;
  email: string;
  failures: number;
  last_failure_at: string;
  locked_until: string | null;
}

/**
 * Login lockout per (IP, e-mail) pair: `maxAttempts` failures lock the pair for `lockoutMinutes`.
 * Works the same for e-mails that have no account. A successful login clears the pair (DECISIONS).
 */
export class Lockout {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: () => Date,
    private readonly opts: () => { max_attempts: number; lockout_minutes: number },
  ) {}

  /** seconds until the pair unlocks, or 0 when it is not locked */
  lockedFor(ip: string, email: string): number {
    const row = this.get(ip, email);
    if (!row?.locked_until) return 0;
    const left = Date.parse(row.locked_until) - this.now().getTime();
    if (left > 0) return Math.ceil(left / 1000);
    this.clearPair(ip, email); // the lock ran out: counting starts again
    return 0;
  }

  recordFailure(ip: string, email: string): { locked: boolean; failures: number } {
    const { max_attempts, lockout_minutes } = this.opts();
    const now = this.now();
    const prev = this.get(ip, email);
    const failures = (prev?.failures ?? 0) + 1;
    const locked = failures >= max_attempts;
    this.db
      .prepare(
        `INSERT INTO auth_login_attempts (ip, email, failures, last_failure_at, locked_until) VALUES (@ip, @email, @failures, @at, @until)
         ON CONFLICT (ip, email) DO UPDATE SET failures = @failures, last_failure_at = @at, locked_until = @until`,
      )
      .run({ ip, email: normalizeEmail(email), failures, at: now.toISOString(), until: locked ? new Date(now.getTime() + lockout_minutes * 60_000).toISOString() : null });
    return { locked, failures };
  }

  clearPair(ip: string, email: string): void {
    this.db.prepare('DELETE FROM auth_login_attempts WHERE ip = ? AND email = ?').run(ip, normalizeEmail(email));
  }

  /** unlock from every IP (admin endpoint and `basin users unlock`); returns how many pairs were cleared */
  clearEmail(email: string): number {
    return this.db.prepare('DELETE FROM auth_login_attempts WHERE email = ?').run(normalizeEmail(email)).changes;
  }

  lockedEmails(): string[] {
    return (this.db.prepare('SELECT DISTINCT email FROM auth_login_attempts WHERE locked_until > ?').all(this.now().toISOString()) as Array<{ email: string }>).map((r) => r.email);
  }

  private get(ip: string, email: string): AttemptRow | undefined {
    return this.db.prepare('SELECT * FROM auth_login_attempts WHERE ip = ? AND email = ?').get(ip, normalizeEmail(email)) as AttemptRow | undefined;
  }
}
