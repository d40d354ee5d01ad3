import { errors, type BasinConfig } from '@basin/core';
import type { ObjectStoreSettings } from './object-store.js';

interface CloudObjectStore {
  bucket: string;
  region?: string;
  endpoint?: string;
  prefix: string;
  force_path_style: boolean;
  access_key_env: string;
  secret_key_env: string;
}

/**
 * `object_store` from .basin/cloud.yml, its keys read from the variables it names. The endpoint
 * defaults to the hosted provider's (DigitalOcean Spaces) for its region; `byos` without an endpoint
 * means AWS S3.
 */
export function objectStoreSettings(config: Pick<BasinConfig, 'file' | 'env'>): ObjectStoreSettings {
  const cloud = config.file<{ provider: string; region: string; object_store?: CloudObjectStore }>('cloud');
  const os = cloud.object_store;
  if (!os) throw errors.badRequest('No object storage is configured: add object_store (bucket, region, endpoint) to .basin/cloud.yml and its keys to .env.', undefined, 'object_store_missing');
  const region = os.region ?? cloud.region;
  const accessKeyId = config.env(os.access_key_env);
  const secretAccessKey = config.env(os.secret_key_env);
  const missing = [!accessKeyId && os.access_key_env, !secretAccessKey && os.secret_key_env].filter(Boolean);
  if (missing.length) throw errors.badRequest(`The object storage keys are not set: add ${missing.join(' and ')} with "basin secrets set".`, { missing }, 'object_store_keys_missing');
  const endpoint = os.endpoint ?? (cloud.provider === 'digitalocean' ? `https://${region}.digitaloceanspaces.com` : undefined);
  return { bucket: os.bucket, region, endpoint, prefix: os.prefix, forcePathStyle: os.force_path_style, accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! };
}
