import { errors } from '@basin/core';
import { createBackup, listBackups, type BackupDeps, type Progress } from './backup.js';
import type { BackupManifest } from './manifest.js';

/**
 * Backups of the running project. One at a time: a second request while one runs is 409, so a
 * schedule and a manual backup never race for the same staging space.
 */
export class BackupService {
  private running: Promise<BackupManifest> | null = null;

  constructor(private readonly d: BackupDeps) {}

  get busy(): boolean {
    return !!this.running;
  }

  async create(opts: { includeSecrets: boolean }, progress?: Progress): Promise<BackupManifest> {
    if (this.running) throw errors.conflict('backup_in_progress', 'A backup is already running; wait for it to finish.');
    this.running = createBackup(this.d, opts, progress);
    try {
      return await this.running;
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
