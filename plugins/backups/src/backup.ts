import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { BASIN_VERSION, type Clock, type SqliteDb, type Warehouse } from '@basin/core';
import { BACKUP_ID, MANIFEST, type BackupFileEntry, type BackupManifest } from './manifest.js';
import type { ObjectStore } from './object-store.js';
import { configFiles, SECRET_FILES } from './project-files.js';

export interface BackupDeps {
  projectDir: string;
  projectName: string;
  /** the warehouse file, project-relative as platform.db_path says */
  dbPath: string;
  txDir: string;
  warehouse: Warehouse;
  stateDb: SqliteDb;
  /** auth.db when the auth plugin is installed */
  authDb: SqliteDb | null;
  store: () => ObjectStore;
  clock: Clock;
}

export type Progress = (line: string) => void;

const posix = (p: string) => p.split(path.sep).join('/');

/** gzips a file into `gz` while hashing the original */
async function gzipAndHash(file: string, gz: string): Promise<{ sha256: string; bytes: number }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const src = fs.createReadStream(file);
  src.on('data', (c) => {
    hash.update(c);
    bytes += c.length;
  });
  await pipeline(src, zlib.createGzip({ level: 6 }), fs.createWriteStream(gz));
  return { sha256: hash.digest('hex'), bytes };
}

export function newBackupId(now: Date): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * `basin backup`: a checkpointed copy of the warehouse (core Warehouse.snapshotTo), online copies of
 * state.db and auth.db (SQLite's backup API), the configs and the dbt project, each gzipped with the
 * sha256 of its original, uploaded under `<prefix><id>/`; the manifest goes last.
 */
export async function createBackup(d: BackupDeps, opts: { includeSecrets: boolean }, progress: Progress = () => {}): Promise<BackupManifest> {
  const id = newBackupId(d.clock.now());
  if (!BACKUP_ID.test(id)) throw new Error(`bad backup id ${id}`);
  const staging = path.join(d.projectDir, '.basin', 'tmp', `backup-${id}`);
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  const store = d.store();
  const files: BackupFileEntry[] = [];
  let n = 0;
  const add = async (rel: string, source: string, kind: BackupFileEntry['kind']) => {
    const object = `files/${String(++n).padStart(4, '0')}.gz`;
    const gz = path.join(staging, `${n}.gz`);
    const { sha256, bytes } = await gzipAndHash(source, gz);
    progress(`uploading ${rel} (${bytes} bytes)`);
    await store.putFile(`${id}/${object}`, gz);
    fs.rmSync(gz, { force: true });
    files.push({ path: rel, object, sha256, bytes, kind });
  };
  try {
    let warehouseCopy: BackupManifest['warehouse_copy'] = 'absent';
    if (fs.existsSync(path.resolve(d.projectDir, d.dbPath))) {
      progress('copying the warehouse (checkpointed)');
      const snap = path.join(staging, 'warehouse.db');
      warehouseCopy = await d.warehouse.snapshotTo(snap);
      await add(posix(path.normalize(d.dbPath)), snap, 'warehouse');
      fs.rmSync(snap, { force: true });
    }
    for (const [rel, db] of [['.basin/state.db', d.stateDb], ['.basin/auth.db', d.authDb]] as const) {
      if (!db) continue;
      progress(`copying ${rel}`);
      const copy = path.join(staging, path.basename(rel));
      await db.backup(copy);
      await add(rel, copy, 'database');
      fs.rmSync(copy, { force: true });
    }
    for (const rel of configFiles(d.projectDir, d.txDir)) await add(rel, path.join(d.projectDir, rel), 'config');
    if (opts.includeSecrets) for (const rel of SECRET_FILES) if (fs.existsSync(path.join(d.projectDir, rel))) await add(rel, path.join(d.projectDir, rel), 'secret');
    const manifest: BackupManifest = {
      format: 1,
      id,
      created_at: d.clock.now().toISOString(),
      basin_version: BASIN_VERSION,
      project: d.projectName,
      include_secrets: opts.includeSecrets,
      warehouse_copy: warehouseCopy,
      files,
    };
    await store.putJson(`${id}/${MANIFEST}`, manifest);
    progress(`backup ${id}: ${files.length} files, ${files.reduce((a, f) => a + f.bytes, 0)} bytes`);
    return manifest;
  } finally {
    store.destroy();
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** every complete backup (those with a manifest), newest first */
export async function listBackups(store: ObjectStore): Promise<Array<Pick<BackupManifest, 'id' | 'created_at' | 'basin_version' | 'include_secrets'> & { files: number; bytes: number }>> {
  const out = [];
  for (const id of (await store.listIds()).filter((i) => BACKUP_ID.test(i)).reverse()) {
    try {
      const m = await store.getJson<BackupManifest>(`${id}/${MANIFEST}`);
      out.push({ id: m.id, created_at: m.created_at, basin_version: m.basin_version, include_secrets: m.include_secrets, files: m.files.length, bytes: m.files.reduce((a, f) => a + f.bytes, 0) });
    } catch {
      /* no manifest: an interrupted backup */
    }
  }
  return out;
}
