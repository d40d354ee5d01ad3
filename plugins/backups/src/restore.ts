import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { errors, resolveInside } from '@basin/core';
import { listBackups } from './backup.js';
import { BACKUP_ID, MANIFEST, type BackupManifest } from './manifest.js';
import type { ObjectStore } from './object-store.js';
import type { Progress } from './backup.js';

async function sha256(file: string): Promise<string> {
  const h = crypto.createHash('sha256');
  for await (const c of fs.createReadStream(file)) h.update(c);
  return h.digest('hex');
}

/**
 * `basin restore`: downloads every file of a backup into a staging directory and checks each against
 * the manifest's size and sha256; only when all match are they moved into the project (each by a
 * rename; the warehouse's and databases' WAL files and the stale serving copy removed first). A
 * damaged or incomplete backup changes nothing. The server must be stopped (the caller checks).
 */
export async function restoreBackup(projectDir: string, store: ObjectStore, which: string, servingPath: string, progress: Progress = () => {}): Promise<BackupManifest> {
  let id = which;
  if (which === 'latest') {
    const all = await listBackups(store);
    if (!all.length) throw errors.notFound(`A backup under ${store.settings.prefix} in bucket ${store.settings.bucket}`);
    id = all[0]!.id;
  }
  if (!BACKUP_ID.test(id)) throw errors.badRequest(`"${which}" is not a backup id (like 20260301T120000Z-a1b2c3) or "latest"; see "basin backup list".`, undefined, 'invalid_backup_id');
  const manifest = await store.getJson<BackupManifest>(`${id}/${MANIFEST}`);
  if (manifest.format !== 1) throw errors.badRequest(`Backup ${id} has format ${manifest.format}, which this Basin cannot read.`, undefined, 'backup_format');
  const staging = path.join(projectDir, '.basin', 'tmp', `restore-${id}`);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  try {
    const staged: Array<{ target: string; file: string }> = [];
    for (const [i, f] of manifest.files.entries()) {
      const target = resolveInside(projectDir, f.path);
      if (!target || f.path.includes('..')) throw errors.badRequest(`Backup ${id} names a file outside the project (${f.path}); refusing to restore it.`, undefined, 'backup_path_outside');
      progress(`downloading ${f.path}`);
      const gz = path.join(staging, `${i}.gz`);
      const file = path.join(staging, `${i}`);
      await store.getFile(`${id}/${f.object}`, gz);
      await pipeline(fs.createReadStream(gz), zlib.createGunzip(), fs.createWriteStream(file, { mode: 0o600 }));
      fs.rmSync(gz);
      if (fs.statSync(file).size !== f.bytes || (await sha256(file)) !== f.sha256) {
        throw errors.badRequest(`Backup ${id} is damaged: ${f.path} does not match its checksum. Nothing was restored.`, { file: f.path }, 'backup_checksum_mismatch');
      }
      staged.push({ target, file });
    }
    progress('all files verified; putting them in place');
    for (const { target, file } of staged) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      for (const side of ['.wal', '-wal', '-shm']) fs.rmSync(`${target}${side}`, { force: true });
      fs.renameSync(file, target);
    }
    // the serving copy is republished from the restored warehouse at the next start
    fs.rmSync(servingPath, { force: true });
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
