// One Trino coordinator for the whole test run (shared-server.ts), configured by the same code as
// `basin warehouse up` (plugins/warehouse-trino/src/coordinator-config.ts): the Iceberg JDBC catalog in the
// run's shared PostgreSQL, files on local disk, a Hive file-metastore catalog for Parquet staging, a
// writer and a read-only reader. First start takes ~20 s; every later test file reuses it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalCoordinator } from '../../plugins/warehouse-trino/src/local-coordinator.js';
import { freshDatabase, sharedPostgres } from './shared-postgres.js';
import { sharedServer } from './shared-server.js';
import { freePort } from './server-process.js';

export interface TrinoTestServer {
  /** https://127.0.0.1:<port> */
  url: string;
  /** the coordinator's self-signed certificate (PEM text) and its file */
  ca: string;
  certificateFile: string;
  writer: { user: string; password: string };
  reader: { user: string; password: string };
  /** the Iceberg catalog and the Hive staging catalog */
  catalog: string;
  stagingCatalog: string;
  /** `local:///` of both catalogs: staged Parquet goes under it */
  lakeDir: string;
  /** how long the coordinator took to start (ms), for the suite's timing note */
  startMs: number;
}


export async function sharedTrino(): Promise<TrinoTestServer> {
  const info = await sharedServer('trino', async () => {
    const pg = await sharedPostgres();
    const db = freshDatabase(pg, 'iceberg');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-trino-'));
    const writer = { user: 'basin', password: crypto.randomBytes(12).toString('hex') };
    const reader = { user: 'basin_reader', password: crypto.randomBytes(12).toString('hex') };
    const lakeDir = path.join(dir, 'lake');
    const t0 = Date.now();
    const c = await startLocalCoordinator(
      { dir, port: await freePort(), httpsPort: await freePort(), lakeDir, catalogDb: { host: pg.host, port: pg.port, database: db.database, user: db.user, password: db.password }, writer, reader },
      { detached: true },
    );
    const server: TrinoTestServer = { url: c.url, ca: fs.readFileSync(c.certificate, 'utf8'), certificateFile: c.certificate, writer, reader, catalog: 'lake', stagingCatalog: 'staging', lakeDir, startMs: Date.now() - t0 };
    return { info: server, processes: [{ pid: c.pid, group: true }], dirs: [dir] };
  });
  return info;
}
