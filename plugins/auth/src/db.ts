import { migrate, openSqlite, type SqliteDb } from '@basin/core';

/** `.basin/auth.db` schema. Secrets are never stored in plaintext: tokens and keys as SHA-256, passwords as bcrypt, TOTP secrets AES-GCM. */
const MIGRATIONS = [
  `
  CREATE TABLE auth_users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    display_name TEXT,
    role TEXT NOT NULL CHECK (role IN ('admin','editor','viewer')),
    status TEXT NOT NULL CHECK (status IN ('invited','active','inactive')),
    password_hash TEXT,
    password_changed_at TEXT,
    must_change_password INTEGER NOT NULL DEFAULT 0,
    totp_secret_enc TEXT,
    totp_pending_enc TEXT,
    totp_enabled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    last_login_at TEXT
  );
  CREATE TABLE auth_sessions (
    id_hash TEXT PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    partial INTEGER NOT NULL DEFAULT 0,
    method TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    ip TEXT,
    user_agent TEXT
  );
  CREATE INDEX auth_sessions_user ON auth_sessions(user_id);
  CREATE TABLE auth_api_keys (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    last_used_at TEXT,
    revoked_at TEXT
  );
  CREATE TABLE auth_tokens (
    token_hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('invite','reset','setup')),
    user_id TEXT REFERENCES auth_users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  );
  CREATE TABLE auth_login_attempts (
    ip TEXT NOT NULL,
    email TEXT NOT NULL,
    failures INTEGER NOT NULL,
    last_failure_at TEXT NOT NULL,
    locked_until TEXT,
    PRIMARY KEY (ip, email)
  );
  CREATE TABLE auth_recovery_codes (
    user_id TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at TEXT,
    PRIMARY KEY (user_id, code_hash)
  );
  CREATE TABLE auth_identities (
    provider TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
    email TEXT,
    linked_at TEXT NOT NULL,
    PRIMARY KEY (provider, subject)
  );
  CREATE TABLE auth_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    actor_id TEXT,
    actor_email TEXT,
    action TEXT NOT NULL,
    target TEXT,
    ip TEXT,
    outcome TEXT NOT NULL,
    details TEXT
  );
  CREATE TRIGGER auth_audit_no_update BEFORE UPDATE ON auth_audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER auth_audit_no_delete BEFORE DELETE ON auth_audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  `,
  // a TOTP code is accepted once: the last time step used is remembered (RFC 6238 §5.2)
  `ALTER TABLE auth_users ADD COLUMN totp_last_step INTEGER;`,
  // companion tool accounts (the dashboard tool): a random password per user, AES-GCM sealed; no foreign
  // key because the local account of auth.enabled: false has no user row (AuthService.deleteUser removes rows)
  `CREATE TABLE auth_companion_accounts (
    user_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    password_enc TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, tool)
  );`,
];

export function openAuthDb(file: string): SqliteDb {
  const db = openSqlite(file);
  migrate(db, 'auth', MIGRATIONS);
  return db;
}
