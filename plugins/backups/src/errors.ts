import { defineErrors } from '@basin/core';

/** The backups plugin's error codes (documented on its routes; thrown where the object store or a backup fails). */
export const backupErrors = defineErrors('backups', {
  object_store_missing: { status: 400, message: 'No object storage is configured: add object_store (bucket, region, endpoint) to .basin/cloud.yml and its keys to .env.' },
  object_store_keys_missing: { status: 400, message: 'The object storage keys are not set: add them with "basin secrets set".' },
  invalid_backup_id: { status: 400, message: 'Not a backup id (like 20260301T120000Z-a1b2c3) or "latest".' },
  backup_format: { status: 400, message: 'The backup has a format this Basin cannot read.' },
  backup_path_outside: { status: 400, message: 'The backup names a file outside the project; refusing to restore it.' },
  backup_checksum_mismatch: { status: 400, message: 'The backup is damaged: a file does not match its checksum. Nothing was restored.' },
  backup_in_progress: { status: 409, message: 'A backup is already running; wait for it to finish.' },
});
