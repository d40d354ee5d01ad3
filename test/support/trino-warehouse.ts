// The Trino backend as the warehouse-level tests start it: the run's shared coordinator
// (test/support/trino.ts) with a schema prefix of its own per test file, so files sharing the
// coordinator never see each other's tables, staging or bookkeeping.
import crypto from 'node:crypto';
import path from 'node:path';
import { dbtTrinoVenv } from '@basin/warehouse-trino';
import { installedTrinoHome, javaHome } from '../../plugins/warehouse-trino/src/install.js';
import { postgresBinDir } from './postgres.js';
import { sharedTrino } from './trino.js';
import type { RunningWarehouse, WarehouseUnderTest } from './warehouse-backends.js';

export const trinoUnderTest: WarehouseUnderTest = {
  type: 'trino',
  unavailable(): string | null {
    if (!postgresBinDir()) return 'PostgreSQL server binaries are not installed (node scripts/setup.mjs postgresql)';
    try {
      installedTrinoHome();
      javaHome();
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  },
  async start(projectDir: string): Promise<RunningWarehouse> {
    const trino = await sharedTrino();
    const prefix = `t${crypto.randomBytes(4).toString('hex')}_`;
    const u = new URL(trino.url);
    const dbtDir = dbtTrinoVenv.locate(undefined).dir;
    return {
      section: {
        type: 'trino',
        host: u.hostname,
        port: Number(u.port),
        https: true,
        ca_file: trino.certificateFile,
        catalog: trino.catalog,
        staging_catalog: trino.stagingCatalog,
        lake_dir: path.relative(projectDir, trino.lakeDir),
        schema_prefix: prefix,
        user: trino.writer.user,
        read_user: trino.reader.user,
      },
      env: { BASIN_TRINO_PASSWORD: trino.writer.password, BASIN_TRINO_READ_PASSWORD: trino.reader.password },
      dbtVenv: dbtTrinoVenv.ready(dbtDir) ? { dir: dbtDir } : { missing: `the dbt-trino virtualenv at ${dbtDir} is not installed (${dbtTrinoVenv.spec.setupCommand})` },
      // the coordinator belongs to the run; this file's schemas go with the lake when the run ends
      stop: async () => undefined,
    };
  },
};
