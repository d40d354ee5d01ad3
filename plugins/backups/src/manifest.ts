/** What a backup holds: written last, so a backup without its manifest is incomplete and never restored. */
export interface BackupManifest {
  format: 1;
  id: string;
  created_at: string;
  basin_version: string;
  project: string;
  include_secrets: boolean;
  /** how the warehouse was copied (core Warehouse.snapshotTo) */
  warehouse_copy: 'file_copy' | 'logical_copy' | 'absent';
  files: BackupFileEntry[];
}

export interface BackupFileEntry {
  /** project-relative path, '/'-separated */
  path: string;
  /** object name under the backup (gzip of the file) */
  object: string;
  /** sha256 and size of the original file, checked on restore */
  sha256: string;
  bytes: number;
  kind: 'warehouse' | 'database' | 'config' | 'secret';
}

export const MANIFEST = 'manifest.json';
export const BACKUP_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;
