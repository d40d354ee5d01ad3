import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';

type S3Sdk = typeof import('@aws-sdk/client-s3');
import { errors } from '@basin/core';

/** `object_store` of cloud.yml with the keys read from the environment variables it names. */
export interface ObjectStoreSettings {
  bucket: string;
  region: string;
  endpoint?: string;
  prefix: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

/** S3 allows at most 10,000 parts; 64 MiB parts carry 640 GiB, far past a single-node warehouse */
const PART_BYTES = 64 * 1024 * 1024;

/**
 * An S3-compatible bucket (AWS S3, DigitalOcean Spaces, MinIO, ...) through @aws-sdk/client-s3. Files
 * are uploaded from disk in one PUT, or in parts past `multipartThreshold`, and downloaded to disk
 * as streams, so memory stays flat whatever the warehouse size.
 */
export class ObjectStore {
  /** the SDK (about 140 ms and 12 MB to load) comes with the first call: a backup or restore, not every start */
  private loaded: Promise<{ s3: S3Client; sdk: S3Sdk }> | null = null;

  constructor(
    readonly settings: ObjectStoreSettings,
    private readonly multipartThreshold = 4 * PART_BYTES,
    private readonly partBytes = PART_BYTES,
  ) {
    // the SDK's own Node-version notice would land in every `basin backup` output; Basin's install
    // checks the Node version itself (and package-lock pins an SDK release that supports Node 20)
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  }

  private client(): Promise<{ s3: S3Client; sdk: S3Sdk }> {
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: this.settings.region,
        endpoint: this.settings.endpoint,
        forcePathStyle: this.settings.forcePathStyle,
        credentials: { accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey },
      }),
    }));
    return this.loaded;
  }

  key(rel: string): string {
    return `${this.settings.prefix}${rel}`;
  }

  async putFile(rel: string, file: string): Promise<void> {
    const { s3, sdk } = await this.client();
    const size = fs.statSync(file).size;
    if (size <= this.multipartThreshold) {
      await this.call(`upload ${rel}`, () => s3.send(new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.key(rel), Body: fs.createReadStream(file), ContentLength: size })));
      return;
    }
    const Key = this.key(rel);
    const Bucket = this.settings.bucket;
    const { UploadId } = await this.call(`start the upload of ${rel}`, () => s3.send(new sdk.CreateMultipartUploadCommand({ Bucket, Key })));
    try {
      const parts: Array<{ ETag: string; PartNumber: number }> = [];
      for (let start = 0, n = 1; start < size; start += this.partBytes, n++) {
        const end = Math.min(size, start + this.partBytes) - 1;
        const r = await this.call(`upload part ${n} of ${rel}`, () =>
          s3.send(new sdk.UploadPartCommand({ Bucket, Key, UploadId, PartNumber: n, Body: fs.createReadStream(file, { start, end }), ContentLength: end - start + 1 })),
        );
        parts.push({ ETag: r.ETag!, PartNumber: n });
      }
      await this.call(`finish the upload of ${rel}`, () => s3.send(new sdk.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } })));
    } catch (e) {
      await s3.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      throw e;
    }
  }

  async putJson(rel: string, value: unknown): Promise<void> {
    const { s3, sdk } = await this.client();
    const body = JSON.stringify(value, null, 2);
    await this.call(`upload ${rel}`, () => s3.send(new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.key(rel), Body: body, ContentType: 'application/json' })));
  }

  async getFile(rel: string, file: string): Promise<void> {
    const { s3, sdk } = await this.client();
    const r = await this.call(`download ${rel}`, () => s3.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(rel) })));
    await pipeline(r.Body as Readable, fs.createWriteStream(file));
  }

  async getJson<T>(rel: string): Promise<T> {
    const { s3, sdk } = await this.client();
    const r = await this.call(`download ${rel}`, () => s3.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(rel) })));
    return JSON.parse(await r.Body!.transformToString()) as T;
  }

  /** the "directories" directly under the prefix (one per backup) */
  async listIds(): Promise<string[]> {
    const { s3, sdk } = await this.client();
    const out: string[] = [];
    let token: string | undefined;
    do {
      const r = await this.call('list the backups', () => s3.send(new sdk.ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: this.settings.prefix, Delimiter: '/', ContinuationToken: token })));
      for (const p of r.CommonPrefixes ?? []) if (p.Prefix) out.push(p.Prefix.slice(this.settings.prefix.length).replace(/\/$/, ''));
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }

  /** the storage's error as a 502 that names the bucket and operation, never the keys */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = err.$metadata?.httpStatusCode;
      if (status === 404 || err.name === 'NoSuchKey') throw errors.notFound(`${what} in bucket ${this.settings.bucket}`);
      throw errors.upstream('object_store', `Object storage could not ${what} (bucket ${this.settings.bucket}${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''}): ${err.name ?? 'error'}${status ? ` HTTP ${status}` : ''}. Check object_store in .basin/cloud.yml and the access keys.`);
    }
  }

  destroy(): void {
    void this.loaded?.then(({ s3 }) => s3.destroy());
  }
}
