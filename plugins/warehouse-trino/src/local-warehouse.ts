// `basin warehouse up` for a Trino warehouse: the catalog PostgreSQL and a single-host coordinator
// configured by the same code as the test support, under <data_dir>/trino, with the project's
// warehouse settings (port, catalogs, users, lake folder) and the passwords from its env vars.
import path from 'node:path';
import type { LocalWarehouseServer, WarehouseBackendContext } from '@basin/core';
import { startCatalogPostgres, freePort } from './catalog-postgres.js';
import { startLocalCoordinator } from './local-coordinator.js';
import { trinoSettingsOf } from './settings.js';

export const localTrinoDir = (dataDir: string): string => path.join(dataDir, 'trino');

export async function upLocalTrino(ctx: WarehouseBackendContext, log: (line: string) => void): Promise<LocalWarehouseServer> {
  const s = trinoSettingsOf(ctx);
  const url = new URL(s.url);
  if (!['127.0.0.1', 'localhost'].includes(url.hostname)) {
    throw new Error(`warehouse.host is ${url.hostname}: basin warehouse up starts a coordinator on this host only (set host: 127.0.0.1, or start Trino on ${url.hostname} yourself)`);
  }
  if (url.protocol !== 'https:') throw new Error('a local coordinator takes passwords over HTTPS only; set warehouse.https: true');
  const secret = (name: string) => {
    const v = ctx.env(name);
    if (!v) throw new Error(`set the environment variable ${name} (in the shell or the project's .env): it is the password the coordinator will accept`);
    return v;
  };
  const writer = { user: s.user, password: secret(s.password_env) };
  const reader = { user: s.read_user, password: secret(s.read_password_env) };
  const base = localTrinoDir(ctx.dataDir);
  const pg = await startCatalogPostgres(path.join(base, 'catalog-pg'), log);
  try {
    const coordinator = await startLocalCoordinator(
      {
        dir: path.join(base, 'coordinator'),
        port: await freePort(),
        httpsPort: Number(url.port),
        lakeDir: s.lake_dir,
        catalogDb: pg,
        writer,
        reader,
        catalog: s.catalog,
        stagingCatalog: s.staging_catalog,
      },
      { onProgress: log },
    );
    log(`coordinator log: ${coordinator.logFile}; certificate clients trust: ${coordinator.certificate}`);
    const exited = new Promise<void>((resolve) => coordinator.child.once('exit', () => resolve()));
    void exited.then(() => pg.stop());
    return {
      location: `${coordinator.url} (catalog ${s.catalog}, lake ${s.lake_dir})`,
      exited,
      async stop() {
        await coordinator.stop();
        await pg.stop();
      },
    };
  } catch (e) {
    await pg.stop();
    throw e;
  }
}
