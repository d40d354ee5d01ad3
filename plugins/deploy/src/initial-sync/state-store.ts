import { migrate, type SqliteDb } from '@basin/core';
import type { InitialSyncStatus } from './runner.js';

/** The last initial sync's status in state.db, so a restart (a redeploy) still shows how it went. */
export class InitialSyncStateStore {
  constructor(private readonly db: SqliteDb) {
    migrate(db, 'initial_sync', ['CREATE TABLE initial_sync_state (id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL)']);
  }

  load(): InitialSyncStatus | null {
    const r = this.db.prepare('SELECT status FROM initial_sync_state WHERE id = 1').get() as { status: string } | undefined;
    return r ? (JSON.parse(r.status) as InitialSyncStatus) : null;
  }

  save(s: InitialSyncStatus): void {
    this.db.prepare('INSERT OR REPLACE INTO initial_sync_state (id, status) VALUES (1, ?)').run(JSON.stringify(s));
  }
}
