import { Type } from '@sinclair/typebox';
import type { ConfigFileSpec } from '@basin/core';

/** `.basin/cloud.yml` (SPEC "cloud.yml"): deployment state; read here, written by the deploy tooling. */
export const CloudFile = Type.Object(
  {
    provider: Type.String({ default: 'digitalocean' }),
    server_id: Type.Optional(Type.Integer()),
    server_ip: Type.Optional(Type.String()),
    firewall_id: Type.Optional(Type.String()),
    region: Type.String({ default: 'nyc1' }),
    size: Type.String({ default: 's-2vcpu-4gb' }),
    domain: Type.Optional(Type.String()),
    ssh_key_path: Type.String({ default: '.basin/cloud_key' }),
    ssh_key_id: Type.Optional(Type.Integer()),
    /** beyond SPEC: the SSH login and port of the server, and where Basin lives there */
    ssh_user: Type.String({ default: 'root', pattern: '^[a-z_][a-z0-9_-]*$' }),
    ssh_port: Type.Integer({ minimum: 1, maximum: 65535, default: 22 }),
    remote_dir: Type.String({ default: '/opt/basin', pattern: '^/[A-Za-z0-9._/-]+$' }),
    deploy_branch: Type.String({ default: 'main' }),
    object_store: Type.Optional(
      Type.Object(
        {
          bucket: Type.String(),
          region: Type.Optional(Type.String()),
          access_key_env: Type.String({ default: 'OBJECT_STORE_ACCESS_KEY' }),
          secret_key_env: Type.String({ default: 'OBJECT_STORE_SECRET_KEY' }),
          /** beyond SPEC: the S3-compatible endpoint (default: the hosted provider's for the region, or AWS for byos) */
          endpoint: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
          /** beyond SPEC: key prefix of Basin's backups in the bucket */
          prefix: Type.String({ default: 'basin-backups/', pattern: '^([A-Za-z0-9._-]+/)*$' }),
          /** beyond SPEC: path-style URLs (MinIO and most self-hosted S3 servers need them) */
          force_path_style: Type.Boolean({ default: false }),
        },
        { additionalProperties: false },
      ),
    ),
    tx_overrides: Type.Optional(
      Type.Object({ threads: Type.Optional(Type.Integer({ minimum: 1 })), memory_limit: Type.Optional(Type.String()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false, default: {} },
);

/** `.basin/bi.yml`: dashboard-tool admin credentials and database id. Sensitive, gitignored. */
export const BiFile = Type.Object(
  {
    admin: Type.Object({ email: Type.Optional(Type.String()), password: Type.Optional(Type.String()) }, { additionalProperties: false, default: {} }),
    database: Type.Object({ id: Type.Optional(Type.Integer()) }, { additionalProperties: false, default: {} }),
  },
  { additionalProperties: false, default: {} },
);

export const cloudFileSpec: ConfigFileSpec = { id: 'cloud', path: '.basin/cloud.yml', format: 'yaml', schema: CloudFile };
export const biFileSpec: ConfigFileSpec = { id: 'bi', path: '.basin/bi.yml', format: 'yaml', schema: BiFile, sensitive: true };
