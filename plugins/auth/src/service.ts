import { errors, isRole, type BasinConfig, type Clock, type EventBus, type Role, type SqliteDb } from '@basin/core';
import { ApiKeyStore, toPublicKey } from './api-keys.js';
import { AuditLog } from './audit.js';
import { CompanionAccounts } from './companion-accounts.js';
import { randomToken, SecretBox } from './crypto.js';
import { Lockout } from './lockout.js';
import { checkPasswordPolicy, dummyVerify, hashPassword, verifyPassword } from './passwords.js';
import { SessionStore, type SessionRow } from './sessions.js';
import { effectiveAuthSettings } from './settings.js';
import { TokenStore } from './tokens.js';
import { TwoFactor } from './two-factor.js';
import { toPublicUser, UserStore, type PublicUser, type UserRow } from './users.js';
import type { AuthSection } from './config.js';
import { authErrors } from './errors.js';

/** Who performs an action, for the audit log. */
export interface Actor {
  id: string | null;
  email: string | null;
  ip?: string | null;
}

export interface LoginResult {
  user: UserRow;
  token: string;
  session: SessionRow;
}

const invalidCredentials = () => authErrors.invalid_credentials();
const lastAdmin = () => authErrors.last_admin();

/**
 * Users, sessions, keys, invites, lockout and 2FA: the `auth` service. Routes and the CLI call these
 * flows; every one writes an audit record.
 */
export class AuthService {
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly keys: ApiKeyStore;
  readonly tokens: TokenStore;
  readonly lockout: Lockout;
  readonly audit: AuditLog;
  readonly twoFactor: TwoFactor;
  /** companion tool accounts (the dashboard tool's single sign-on) */
  readonly companions: CompanionAccounts;
  private readonly now: () => Date;

  constructor(
    readonly db: SqliteDb,
    private readonly config: Pick<BasinConfig, 'section' | 'platform' | 'projectDir' | 'env'>,
    clock: Clock,
    private readonly events?: EventBus,
  ) {
    this.now = () => clock.now();
    this.users = new UserStore(db, this.now);
    this.sessions = new SessionStore(db, this.now, () => this.settings());
    this.keys = new ApiKeyStore(db, this.now);
    this.tokens = new TokenStore(db, this.now);
    this.lockout = new Lockout(db, this.now, () => this.settings().lockout);
    this.audit = new AuditLog(db, this.now);
    const box = SecretBox.load(config.projectDir, config.env('BASIN_SECRET_KEY'));
    this.twoFactor = new TwoFactor(db, box, this.now);
    this.companions = new CompanionAccounts(db, box, this.now);
  }

  settings(): AuthSection {
    return effectiveAuthSettings(this.config);
  }

  // ---- login and sessions -------------------------------------------------------------------

  /** SPEC "Password login rules": lockout first, bcrypt, one answer and one timing for every failure. */
  async login(email: string, password: string, ip: string, userAgent?: string): Promise<LoginResult> {
    const retry = this.lockout.lockedFor(ip, email);
    if (retry > 0) {
      this.audit.record({ action: 'login', target: email, ip, outcome: 'denied', details: { reason: 'locked' } });
      throw authErrors.login_locked({ details: { retry_after_seconds: retry }, headers: { 'retry-after': String(retry) } });
    }
    const user = this.users.byEmail(email);
    let ok = false;
    if (user && user.status === 'active' && user.password_hash) ok = await verifyPassword(password, user.password_hash);
    else await dummyVerify(password);
    if (!ok) {
      const r = this.lockout.recordFailure(ip, email);
      this.audit.record({ action: 'login', target: email, ip, outcome: 'failure', details: { locked: r.locked } });
      throw invalidCredentials();
    }
    this.lockout.clearPair(ip, email);
    return this.startSession(user!, 'password', ip, userAgent);
  }

  /** a new session: partial while a second factor is pending */
  startSession(user: UserRow, method: SessionRow['method'], ip: string | null, userAgent?: string): LoginResult {
    const partial = !!user.totp_enabled;
    const { token, session } = this.sessions.create(user.id, { partial, method, ip, userAgent });
    if (!partial) this.users.update(user.id, { last_login_at: this.now().toISOString() });
    this.audit.record({ actor: user, action: `login.${method}`, target: user.email, ip, outcome: 'success', details: { partial } });
    return { user: this.users.byId(user.id)!, token, session };
  }

  /** what still blocks a full session: an expired password (password logins only) or missing required 2FA */
  pendingFor(user: UserRow, session: SessionRow | null): 'setup_2fa' | 'change_password' | undefined {
    const s = this.settings();
    if (user.must_change_password) return 'change_password';
    if (session && session.method === 'password' && s.password_max_age_days > 0) {
      const changed = user.password_changed_at ? Date.parse(user.password_changed_at) : 0;
      if (this.now().getTime() - changed > s.password_max_age_days * 86_400_000) return 'change_password';
    }
    if (s.require_2fa && !user.totp_enabled) return 'setup_2fa';
    return undefined;
  }

  /** ends sessions of a user (all, or all but one) and tells listeners (the dashboard tool ends its own) */
  endSessions(userId: string, exceptPublicId?: string): number {
    const ids = this.sessions.allIds(userId).filter((id) => id !== exceptPublicId);
    for (const id of ids) {
      this.sessions.revoke(id);
      void this.events?.emit('auth_logout', { user_id: userId, session_id: id });
    }
    return ids.length;
  }

  async logout(session: SessionRow, ip: string | null): Promise<void> {
    this.sessions.revoke(session.public_id);
    this.audit.record({ actor: { id: session.user_id, email: null }, action: 'logout', target: session.public_id, ip, outcome: 'success' });
    await this.events?.emit('auth_logout', { user_id: session.user_id, session_id: session.public_id });
  }

  /** POST /api/auth/2fa/verify: upgrade a partial session to a new full one (a new id, so the partial token is worthless) */
  verifySecondFactor(session: SessionRow, code: string, ip: string | null, userAgent?: string): LoginResult {
    const user = this.users.byId(session.user_id);
    if (!user || user.status !== 'active' || !user.totp_enabled || !user.totp_secret_enc) throw errors.notAuthenticated();
    const ok = /^\d{6}$/.test(code.trim()) ? this.twoFactor.useCode(user.id, user.totp_secret_enc, code.trim()) : this.twoFactor.useRecoveryCode(user.id, code);
    if (!ok) {
      this.audit.record({ actor: user, action: '2fa.verify', ip, outcome: 'failure' });
      throw authErrors.invalid_login_code();
    }
    this.sessions.revoke(session.public_id);
    const { token, session: full } = this.sessions.create(user.id, { partial: false, method: session.method, ip, userAgent });
    this.users.update(user.id, { last_login_at: this.now().toISOString() });
    this.audit.record({ actor: user, action: '2fa.verify', ip, outcome: 'success' });
    return { user, token, session: full };
  }

  async changePassword(user: UserRow, current: string, next: string, keepSession: string | undefined, ip: string | null): Promise<void> {
    if (!user.password_hash || !(await verifyPassword(current, user.password_hash))) {
      this.audit.record({ actor: user, action: 'password.change', ip, outcome: 'failure' });
      throw authErrors.wrong_current_password();
    }
    checkPasswordPolicy(next, user.email);
    if (await verifyPassword(next, user.password_hash)) throw authErrors.password_reused({ details: { field: 'new_password' } });
    this.users.setPassword(user.id, await hashPassword(next));
    this.endSessions(user.id, keepSession);
    this.audit.record({ actor: user, action: 'password.change', ip, outcome: 'success' });
  }

  async requirePassword(user: UserRow, password: string, action: string, ip: string | null): Promise<void> {
    if (!user.password_hash || !(await verifyPassword(password, user.password_hash))) {
      this.audit.record({ actor: user, action, ip, outcome: 'failure', details: { reason: 'password' } });
      throw authErrors.invalid_password();
    }
  }

  // ---- invites, resets and first admin ------------------------------------------------------

  /** accepts an invite or reset token: sets the password, activates the user, signs them in */
  async acceptToken(token: string, password: string, displayName: string | undefined, ip: string | null, userAgent?: string): Promise<LoginResult> {
    const row = this.tokens.find(token, ['invite', 'reset']);
    const user = row?.user_id ? this.users.byId(row.user_id) : undefined;
    if (!row || !user) {
      this.audit.record({ action: 'invite.accept', ip, outcome: 'failure' });
      throw authErrors.invalid_token({ reason: 'This link is invalid, expired or already used; ask an admin for a new one.' });
    }
    checkPasswordPolicy(password, user.email);
    const hash = await hashPassword(password);
    if (!this.tokens.consume(token)) throw authErrors.invalid_token({ reason: 'This link was already used.' });
    this.users.setPassword(user.id, hash);
    const fields: Partial<UserRow> = {};
    if (row.kind === 'invite') fields.status = 'active';
    if (displayName !== undefined) fields.display_name = displayName;
    this.users.update(user.id, fields);
    if (row.kind === 'reset') this.endSessions(user.id);
    this.audit.record({ actor: user, action: row.kind === 'invite' ? 'invite.accept' : 'password.reset', ip, outcome: 'success' });
    return this.startSession(this.users.byId(user.id)!, 'invite', ip, userAgent);
  }

  /** a one-time first-admin link while no user exists; null once there is one */
  issueSetupToken(): { token: string; expires_at: string } | null {
    if (this.users.count() > 0) return null;
    return this.tokens.issue('setup', null);
  }

  async completeSetup(token: string, email: string, password: string, ip: string | null, userAgent?: string): Promise<LoginResult> {
    if (this.users.count() > 0) throw authErrors.already_set_up();
    if (!this.tokens.find(token, ['setup'])) throw authErrors.invalid_token({ reason: 'This setup link is invalid, expired or already used; restart Basin for a new one.' });
    checkPasswordPolicy(password, email);
    const hash = await hashPassword(password);
    if (!this.tokens.consume(token)) throw authErrors.invalid_token({ reason: 'This setup link was already used.' });
    const user = this.users.create({ email, role: 'admin', status: 'active', password_hash: hash });
    this.audit.record({ actor: user, action: 'setup.first_admin', target: user.email, ip, outcome: 'success' });
    return this.startSession(user, 'setup', ip, userAgent);
  }

  // ---- user management (users.manage) -------------------------------------------------------

  createUser(actor: Actor, email: string, role: Role, displayName?: string): { user: PublicUser; token: string; expires_at: string } {
    if (this.users.byEmail(email)) throw authErrors.user_exists({ email });
    const user = this.users.create({ email, role, status: 'invited', display_name: displayName });
    const t = this.tokens.issue('invite', user.id);
    this.audit.record({ actor, action: 'user.create', target: user.email, ip: actor.ip, outcome: 'success', details: { role } });
    return { user: toPublicUser(user), ...t };
  }

  /** `basin users add` with a password: an active account at once */
  async addUserWithPassword(actor: Actor, email: string, role: Role, password: string): Promise<UserRow> {
    if (this.users.byEmail(email)) throw authErrors.user_exists({ email });
    checkPasswordPolicy(password, email);
    const user = this.users.create({ email, role, status: 'active', password_hash: await hashPassword(password) });
    this.audit.record({ actor, action: 'user.create', target: user.email, ip: actor.ip, outcome: 'success', details: { role, with_password: true } });
    return user;
  }

  getUser(id: string): UserRow {
    const u = this.users.byId(id);
    if (!u) throw errors.notFound(`User ${id}`);
    return u;
  }

  reinvite(actor: Actor, id: string): { user: PublicUser; token: string; expires_at: string } {
    const u = this.getUser(id);
    if (u.status !== 'invited') throw authErrors.not_invited();
    const t = this.tokens.issue('invite', u.id);
    this.audit.record({ actor, action: 'user.reinvite', target: u.email, ip: actor.ip, outcome: 'success' });
    return { user: toPublicUser(u), ...t };
  }

  setRole(actor: Actor, id: string, role: Role): PublicUser {
    if (!isRole(role)) throw errors.badRequest(`Unknown role ${role}.`);
    const u = this.getUser(id);
    if (u.role === 'admin' && role !== 'admin' && u.status === 'active') this.guardLastAdmin(actor, u, 'user.role');
    this.users.update(id, { role });
    this.audit.record({ actor, action: 'user.role', target: u.email, ip: actor.ip, outcome: 'success', details: { from: u.role, to: role } });
    return toPublicUser(this.users.byId(id)!);
  }

  resetPassword(actor: Actor, id: string): { user: PublicUser; token: string; expires_at: string } {
    const u = this.getUser(id);
    if (u.status === 'invited') throw authErrors.not_accepted();
    const t = this.tokens.issue('reset', u.id);
    this.audit.record({ actor, action: 'user.reset_password', target: u.email, ip: actor.ip, outcome: 'success' });
    return { user: toPublicUser(u), ...t };
  }

  deactivate(actor: Actor, id: string): PublicUser {
    const u = this.getUser(id);
    if (u.role === 'admin' && u.status === 'active') this.guardLastAdmin(actor, u, 'user.deactivate');
    this.users.update(id, { status: 'inactive' });
    const ended = this.endSessions(id);
    this.audit.record({ actor, action: 'user.deactivate', target: u.email, ip: actor.ip, outcome: 'success', details: { sessions_ended: ended } });
    return toPublicUser(this.users.byId(id)!);
  }

  reactivate(actor: Actor, id: string): PublicUser {
    const u = this.getUser(id);
    if (u.status !== 'inactive') throw authErrors.not_inactive();
    this.users.update(id, { status: 'active' });
    this.audit.record({ actor, action: 'user.reactivate', target: u.email, ip: actor.ip, outcome: 'success' });
    return toPublicUser(this.users.byId(id)!);
  }

  deleteUser(actor: Actor, id: string): void {
    const u = this.getUser(id);
    if (u.role === 'admin' && u.status === 'active') this.guardLastAdmin(actor, u, 'user.delete');
    this.users.delete(id);
    this.companions.forget(id);
    this.audit.record({ actor, action: 'user.delete', target: u.email, ip: actor.ip, outcome: 'success' });
  }

  unlock(actor: Actor, email: string): number {
    const n = this.lockout.clearEmail(email);
    this.audit.record({ actor, action: 'user.unlock', target: email, ip: actor.ip, outcome: 'success', details: { pairs_cleared: n } });
    return n;
  }

  /** An admin removes another user's 2FA (lost device, no recovery code); they may set it up again. Their sessions end. */
  resetTwoFactor(actor: Actor, id: string): { sessions_ended: number } {
    const u = this.getUser(id);
    this.users.update(u.id, { totp_enabled: 0, totp_secret_enc: null, totp_pending_enc: null });
    this.twoFactor.clear(u.id);
    const n = this.endSessions(u.id);
    this.audit.record({ actor, action: 'user.reset_2fa', target: u.email, ip: actor.ip, outcome: 'success' });
    return { sessions_ended: n };
  }

  revokeSessions(actor: Actor, id: string): number {
    const u = this.getUser(id);
    const n = this.endSessions(id);
    this.audit.record({ actor, action: 'user.revoke_sessions', target: u.email, ip: actor.ip, outcome: 'success', details: { sessions_ended: n } });
    return n;
  }

  /** `basin users recover-admin`: new temporary password (must be changed at login), 2FA removed, lock cleared */
  async recoverAdmin(email: string): Promise<string> {
    const u = this.users.byEmail(email);
    if (!u) throw errors.notFound(`User ${email}`);
    if (u.role !== 'admin') throw errors.badRequest(`${email} is not an admin; recover-admin only resets admins.`);
    const temp = randomToken(20);
    this.users.update(u.id, {
      password_hash: await hashPassword(temp),
      password_changed_at: this.now().toISOString(),
      must_change_password: 1,
      status: 'active',
      totp_enabled: 0,
      totp_secret_enc: null,
      totp_pending_enc: null,
    });
    this.twoFactor.clear(u.id);
    this.lockout.clearEmail(u.email);
    this.endSessions(u.id);
    this.audit.record({ actor: { id: null, email: 'cli' }, action: 'user.recover_admin', target: u.email, outcome: 'success' });
    return temp;
  }

  private guardLastAdmin(actor: Actor, u: UserRow, action: string): void {
    if (this.users.activeAdminCount() <= 1) {
      this.audit.record({ actor, action, target: u.email, ip: actor.ip, outcome: 'denied', details: { reason: 'last_admin' } });
      throw lastAdmin();
    }
  }

  // ---- API keys -----------------------------------------------------------------------------

  createKey(user: UserRow, name: string, expiresAt: string | null, ip: string | null) {
    if (expiresAt && Date.parse(expiresAt) <= this.now().getTime()) throw errors.badRequest('expires_at must be in the future.', { field: 'expires_at' });
    const { key, record } = this.keys.create(user.id, name, expiresAt ? new Date(expiresAt).toISOString() : null);
    this.audit.record({ actor: user, action: 'api_key.create', target: record.prefix, ip, outcome: 'success' });
    return { ...toPublicKey(record), key };
  }

  revokeKey(user: UserRow, keyId: string, ip: string | null): void {
    const k = this.keys.byId(keyId);
    if (!k || k.user_id !== user.id) throw errors.notFound(`API key ${keyId}`);
    this.keys.revoke(keyId);
    this.audit.record({ actor: user, action: 'api_key.revoke', target: k.prefix, ip, outcome: 'success' });
  }
}
