import type { Role, SqliteDb } from '@basin/core';
import { newId } from './crypto.js';

export type UserStatus = 'invited' | 'active' | 'inactive';

export interface UserRow {
  id: string;
  email: string;
  display_name: string | null;
  role: Role;
  status: UserStatus;
  password_hash: string | null;
  password_changed_at: string | null;
  must_change_password: number;
  totp_secret_enc: string | null;
  totp_pending_enc: string | null;
  totp_enabled: number;
  created_at: string;
  last_login_at: string | null;
}

/** What the API shows of a user; never a hash or secret. */
export interface PublicUser {
  id: string;
  email: string;
  display_name: string | null;
  role: Role;
  status: UserStatus;
  two_factor_enabled: boolean;
  created_at: string;
  last_login_at: string | null;
}

export const normalizeEmail = (e: string): string => e.trim().toLowerCase();

export const toPublicUser = (u: UserRow): PublicUser => ({
  id: u.id,
  email: u.email,
  display_name: u.display_name,
  role: u.role,
  status: u.status,
  two_factor_enabled: !!u.totp_enabled,
  created_at: u.created_at,
  last_login_at: u.last_login_at,
});

export class UserStore {
  constructor(private readonly db: SqliteDb, private readonly now: () => Date) {}

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM auth_users').get() as { n: number }).n;
  }

  list(): UserRow[] {
    return this.db.prepare('SELECT * FROM auth_users ORDER BY created_at, email').all() as UserRow[];
  }

  byId(id: string): UserRow | undefined {
    return this.db.prepare('SELECT * FROM auth_users WHERE id = ?').get(id) as UserRow | undefined;
  }

  byEmail(email: string): UserRow | undefined {
    return this.db.prepare('SELECT * FROM auth_users WHERE email = ?').get(normalizeEmail(email)) as UserRow | undefined;
  }

  create(u: { email: string; role: Role; status: UserStatus; display_name?: string | null; password_hash?: string | null }): UserRow {
    const id = newId();
    const at = this.now().toISOString();
    this.db
      .prepare('INSERT INTO auth_users (id, email, display_name, role, status, password_hash, password_changed_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, normalizeEmail(u.email), u.display_name ?? null, u.role, u.status, u.password_hash ?? null, u.password_hash ? at : null, at);
    return this.byId(id)!;
  }

  update(id: string, fields: Partial<Omit<UserRow, 'id' | 'created_at'>>): void {
    const keys = Object.keys(fields);
    if (!keys.length) return;
    this.db.prepare(`UPDATE auth_users SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  setPassword(id: string, hash: string): void {
    this.update(id, { password_hash: hash, password_changed_at: this.now().toISOString(), must_change_password: 0 });
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM auth_users WHERE id = ?').run(id);
  }

  activeAdminCount(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM auth_users WHERE role = 'admin' AND status = 'active'").get() as { n: number }).n;
  }
}
