import type { SqliteDb } from '@basin/core';

/** A notebook's lock (SPEC "Notebook lock"): one editor at a time, kept alive by heartbeats. */
export interface NotebookLock {
  name: string;
  user_id: string | null;
  user_email: string | null;
  locked_at: string;
  expires_at: string;
}

export type AcquireResult = { ok: true; lock: NotebookLock } | { ok: false; held: NotebookLock };

/** Locks in .basin/state.db, so a restart keeps them (their servers do not survive it: see index.ts). */
export class LockStore {
  constructor(private readonly db: SqliteDb) {
    db.exec(`CREATE TABLE IF NOT EXISTS notebook_locks (
      name TEXT PRIMARY KEY,
      user_id TEXT,
      user_email TEXT,
      locked_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`);
  }

  /** The lock on `name` if it has not expired. */
  get(name: string, now: Date): NotebookLock | undefined {
    const row = this.db.prepare('SELECT * FROM notebook_locks WHERE name = ?').get(name) as NotebookLock | undefined;
    return row && Date.parse(row.expires_at) > now.getTime() ? row : undefined;
  }

  all(now: Date): NotebookLock[] {
    return (this.db.prepare('SELECT * FROM notebook_locks ORDER BY name').all() as NotebookLock[]).filter((l) => Date.parse(l.expires_at) > now.getTime());
  }

  /** Names whose lock expired (their servers stop); the rows are removed. */
  sweepExpired(now: Date): string[] {
    const gone = (this.db.prepare('SELECT name FROM notebook_locks WHERE expires_at <= ?').all(now.toISOString()) as Array<{ name: string }>).map((r) => r.name);
    if (gone.length) this.db.prepare('DELETE FROM notebook_locks WHERE expires_at <= ?').run(now.toISOString());
    return gone;
  }

  /** Takes the lock, or refreshes it when the caller already holds it; refuses when another user does. */
  acquire(name: string, user: { id: string | null; email: string | null }, now: Date, ttlMs: number): AcquireResult {
    const tx = this.db.transaction((): AcquireResult => {
      const held = this.get(name, now);
      if (held && held.user_id !== user.id) return { ok: false, held };
      const lock: NotebookLock = {
        name,
        user_id: user.id,
        user_email: user.email,
        locked_at: held?.locked_at ?? now.toISOString(),
        expires_at: new Date(now.getTime() + ttlMs).toISOString(),
      };
      this.db
        .prepare('INSERT INTO notebook_locks (name, user_id, user_email, locked_at, expires_at) VALUES (@name, @user_id, @user_email, @locked_at, @expires_at) ON CONFLICT(name) DO UPDATE SET user_id = excluded.user_id, user_email = excluded.user_email, locked_at = excluded.locked_at, expires_at = excluded.expires_at')
        .run(lock);
      return { ok: true, lock };
    });
    return tx.immediate();
  }

  /** Pushes the expiry out; undefined when the caller does not hold a live lock. */
  heartbeat(name: string, userId: string | null, now: Date, ttlMs: number): NotebookLock | undefined {
    const held = this.get(name, now);
    if (!held || held.user_id !== userId) return undefined;
    held.expires_at = new Date(now.getTime() + ttlMs).toISOString();
    this.db.prepare('UPDATE notebook_locks SET expires_at = ? WHERE name = ?').run(held.expires_at, name);
    return held;
  }

  release(name: string): boolean {
    return this.db.prepare('DELETE FROM notebook_locks WHERE name = ?').run(name).changes > 0;
  }
}
