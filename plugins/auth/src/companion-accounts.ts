import type { SqliteDb } from '@basin/core';
import { randomToken, type SecretBox } from './crypto.js';

/** The account id used for the single local user when authentication is off (auth.enabled: false). */
export const LOCAL_ACCOUNT = '';

/**
 * Each user's account in a companion tool (the dashboard tool: SPEC "Dashboard tool single sign-on"):
 * a random password made on first use, stored AES-GCM sealed in auth.db and never shown to anyone;
 * only the plugin that signs the user in to the tool reads it. Removed with the user.
 */
export class CompanionAccounts {
  constructor(
    private readonly db: SqliteDb,
    private readonly box: SecretBox,
    private readonly now: () => Date,
  ) {}

  /** The user's password for `tool`, created (and sealed) the first time it is asked for. */
  password(userId: string | null, tool: string): string {
    const id = userId ?? LOCAL_ACCOUNT;
    const row = this.db.prepare('SELECT password_enc FROM auth_companion_accounts WHERE user_id = ? AND tool = ?').get(id, tool) as { password_enc: string } | undefined;
    if (row) return this.box.open(row.password_enc);
    const password = randomToken(40);
    // two first requests at once: the first insert wins and both read it back
    this.db.prepare('INSERT OR IGNORE INTO auth_companion_accounts (user_id, tool, password_enc, created_at) VALUES (?, ?, ?, ?)').run(id, tool, this.box.seal(password), this.now().toISOString());
    const kept = this.db.prepare('SELECT password_enc FROM auth_companion_accounts WHERE user_id = ? AND tool = ?').get(id, tool) as { password_enc: string };
    return this.box.open(kept.password_enc);
  }

  /** Whether the user has an account in `tool` yet. */
  has(userId: string | null, tool: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM auth_companion_accounts WHERE user_id = ? AND tool = ?').get(userId ?? LOCAL_ACCOUNT, tool);
  }

  forget(userId: string): void {
    this.db.prepare('DELETE FROM auth_companion_accounts WHERE user_id = ?').run(userId);
  }
}
