import { errors, migrate, type SqliteDb } from '@basin/core';
import { createBackup, listBackups, type BackupDeps, type Progress } from './backup.js';
import type { BackupManifest } from './manifest.js';

/**
 * Backups of the running project. One at a time: a second request while one runs is 409, so a
 * schedule and a manual backup never race for the same staging space.
 */
export class BackupService {
  private running: Promise<BackupManifest> | null = null;

  constructor(private readonly d: BackupDeps) {
    migrate(d.stateDb, 'backups', ['CREATE TABLE backup_runs (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, backup_id TEXT, status TEXT NOT NULL, error TEXT, bytes INTEGER)']);
  }

  private get db(): SqliteDb {
    return this.d.stateDb;
  }

  /** backup health for GET /api/health/platform: the last success and the last failure */
  health(): { last_success_at: string | null; last_backup_id: string | null; last_failure_at: string | null; last_error: string | null; running: boolean } {
    const ok = this.db.prepare("SELECT at, backup_id FROM backup_runs WHERE status = 'succeeded' ORDER BY id DESC LIMIT 1").get() as { at: string; backup_id: string } | undefined;
    const bad = this.db.prepare("SELECT at, error FROM backup_runs WHERE status = 'failed' ORDER BY id DESC LIMIT 1").get() as { at: string; error: string } | undefined;
    return { last_success_at: ok?.at ?? null, last_backup_id: ok?.backup_id ?? null, last_failure_at: bad?.at ?? null, last_error: bad?.error ?? null, running: this.busy };
  }

  get busy(): boolean {
    return !!this.running;
  }

  async create(opts: { includeSecrets: boolean }, progress?: Progress): Promise<BackupManifest> {
    if (this.running) throw errors.conflict('backup_in_progress', 'A backup is already running; wait for it to finish.');
    this.running = createBackup(this.d, opts, progress);
    const record = this.db.prepare('INSERT INTO backup_runs (at, backup_id, status, error, bytes) VALUES (?, ?, ?, ?, ?)');
    try {
      const m = await this.running;
      record.run(this.d.clock.now().toISOString(), m.id, 'succeeded', null, m.files.reduce((a, f) => a + f.bytes, 0));
      return m;
    } catch (e) {
      // the message names the bucket and operation, never a key
      record.run(this.d.clock.now().toISOString(), null, 'failed', (e as Error).message.slice(0, 500), null);
      throw e;
    } finally {
      this.running = null;
    }
  }

  async list() {
    const store = this.d.store();
    try {
      return await listBackups(store);
    } finally {
      store.destroy();
    }
  }
}
