import type { KinesisClient } from '@aws-sdk/client-kinesis';
import { SourceError, type SourceContext } from '@basin/sdk';
import type { KinesisConfig } from './config.js';

/** A Kinesis client for the config; the keys come from the named variables and are never logged. */
export async function makeClient(ctx: SourceContext<KinesisConfig>): Promise<KinesisClient> {
  const cfg = ctx.config;
  const { KinesisClient } = await import('@aws-sdk/client-kinesis');
  const { NodeHttpHandler } = await import('@smithy/node-http-handler');
  return new KinesisClient({
    // HTTP/1.1: the client defaults to HTTP/2 (for SubscribeToShard), which the polling calls used here do not need
    requestHandler: new NodeHttpHandler({ connectionTimeout: 10_000, requestTimeout: 60_000 }),
    region: cfg.region,
    ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
    credentials: { accessKeyId: ctx.secret(cfg.access_key_id_env), secretAccessKey: ctx.secret(cfg.secret_access_key_env) },
    maxAttempts: 3,
  });
}

/** Where requests go, for messages. */
export function where(cfg: KinesisConfig): string {
  return cfg.endpoint ?? `Kinesis in ${cfg.region}`;
}

/** An SDK or network error as a SourceError that says what to fix, without any key. */
export function describeError(e: unknown, cfg: KinesisConfig): SourceError {
  if (e instanceof SourceError) return e;
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const net = err.code ?? err.cause?.code;
  switch (err.name) {
    case 'UnrecognizedClientException':
    case 'InvalidSignatureException':
    case 'IncompleteSignature':
    case 'ExpiredTokenException':
      return new SourceError('auth_failed', `${where(cfg)} rejected the credentials (${err.name}). Check the environment variables ${cfg.access_key_id_env} and ${cfg.secret_access_key_env}.`, { variables: [cfg.access_key_id_env, cfg.secret_access_key_env] });
    case 'AccessDeniedException':
      return new SourceError('forbidden', `${where(cfg)}: access denied (${err.message ?? ''}). Grant kinesis:ListStreams, ListShards, GetShardIterator and GetRecords to this key.`);
    case 'ResourceNotFoundException':
      return new SourceError('not_found', `${where(cfg)}: ${err.message ?? 'stream not found'}. Check streams in the config.`);
  }
  if (net && /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN)$/.test(net)) {
    return new SourceError('connection_failed', `Could not reach ${where(cfg)} (${net}). Check endpoint and region in the config.`, { code: net });
  }
  return new SourceError('connection_failed', `${where(cfg)}: ${err.name ?? 'error'}: ${err.message ?? String(e)}`);
}
