import { createServiceRef } from '@basin/core';
import type { BackupService } from './service.js';

/** The public face of the backups plugin (`@basin/plugin-backups/contract`). */
export type { BackupService } from './service.js';
export type { BackupManifest, BackupFileEntry } from './manifest.js';

export const backupsRef = createServiceRef<BackupService>({ id: 'backups' });
