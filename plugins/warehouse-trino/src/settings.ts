// The `warehouse` section of a Trino project (validated against package.json's settings, defaults
// applied) as typed settings with paths resolved.
import fs from 'node:fs';
import path from 'node:path';
import type { WarehouseBackendContext } from '@basin/core';
import type { TrinoSettings } from './client.js';

/** the certificate `basin warehouse up` makes for its coordinator (trusted when ca_file is empty) */
export const localCertificate = (dataDir: string): string => path.join(dataDir, 'trino', 'coordinator', 'etc', 'cert.pem');

export function trinoSettingsOf(ctx: Pick<WarehouseBackendContext, 'settings' | 'projectDir' | 'dataDir'>): TrinoSettings {
  const s = ctx.settings;
  const str = (k: string) => String(s[k] ?? '');
  const scheme = s.https === false ? 'http' : 'https';
  const local = localCertificate(ctx.dataDir);
  return {
    url: `${scheme}://${str('host')}:${Number(s.port)}`,
    catalog: str('catalog'),
    staging_catalog: str('staging_catalog'),
    lake_dir: path.resolve(ctx.projectDir, str('lake_dir')),
    schema_prefix: str('schema_prefix'),
    user: str('user'),
    password_env: str('password_env'),
    read_user: str('read_user'),
    read_password_env: str('read_password_env'),
    ca_file: str('ca_file') ? path.resolve(ctx.projectDir, str('ca_file')) : fs.existsSync(local) ? local : '',
  };
}
