import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { betterSqlite3 } from '../lazy-deps.js';

export type SqliteDb = Database.Database;

/** Opens a SQLite file in WAL mode with owner-only permissions (it may hold secrets and hashes). */
export function openSqlite(file: string): SqliteDb {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const existed = fs.existsSync(file);
  const db = new (betterSqlite3())(file);
  if (!existed) fs.chmodSync(file, 0o600);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Versioned migrations per scope (one scope per plugin). Each entry runs once, in order, in a
 * transaction; the applied version is recorded in _migrations.
 */
export function migrate(db: SqliteDb, scope: string, migrations: string[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS _migrations (scope TEXT NOT NULL, version INTEGER NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (scope, version))');
  const applied = new Set(
    (db.prepare('SELECT version FROM _migrations WHERE scope = ?').all(scope) as Array<{ version: number }>).map((r) => r.version),
  );
  const record = db.prepare('INSERT INTO _migrations (scope, version, applied_at) VALUES (?, ?, ?)');
  migrations.forEach((sql, i) => {
    const version = i + 1;
    if (applied.has(version)) return;
    db.transaction(() => {
      db.exec(sql);
      record.run(scope, version, new Date().toISOString());
    })();
  });
}
