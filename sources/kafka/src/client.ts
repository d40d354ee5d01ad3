import fs from 'node:fs';
import path from 'node:path';
import type { Kafka, SASLOptions } from 'kafkajs';
import { SourceError, type SourceContext } from '@basin/sdk';
import type { KafkaConfig } from './config.js';

/**
 * A kafkajs client for the config; the SASL password comes from the named variable and is never logged.
 * kafkajs (~140 modules) is imported on the first call, not when the server lists the source types.
 */
export async function makeKafka(ctx: SourceContext<KafkaConfig>, retries = 3): Promise<Kafka> {
  const { Kafka, logLevel } = await import('kafkajs');
  const cfg = ctx.config;
  const sasl: SASLOptions | undefined = cfg.security_protocol.startsWith('sasl_')
    ? ({ mechanism: cfg.sasl_mechanism, username: cfg.username ?? '', password: ctx.secret(cfg.password_env) } as SASLOptions)
    : undefined;
  return new Kafka({
    clientId: `basin-${ctx.name}`,
    brokers: cfg.bootstrap_servers,
    ssl: cfg.security_protocol.endsWith('ssl') ? (cfg.ssl_ca_file ? { ca: [readCa(ctx.projectDir, cfg.ssl_ca_file)] } : true) : false,
    ...(sasl ? { sasl } : {}),
    connectionTimeout: cfg.connection_timeout_ms,
    requestTimeout: 60_000,
    retry: { retries, initialRetryTime: 300, maxRetryTime: 5_000 },
    // errors reach the sync as SourceErrors (describeError); kafkajs' own console lines would only repeat them
    logLevel: logLevel.NOTHING,
  });
}

function readCa(projectDir: string, file: string): string {
  const full = path.resolve(projectDir, file);
  try {
    return fs.readFileSync(full, 'utf8');
  } catch {
    throw new SourceError('config_invalid', `ssl_ca_file ${file} cannot be read (${full}). Put the CA's PEM file there or fix ssl_ca_file in the config.`);
  }
}

/** Where requests go, for messages. */
export function where(cfg: KafkaConfig): string {
  return `the Kafka broker${cfg.bootstrap_servers.length > 1 ? 's' : ''} ${cfg.bootstrap_servers.join(', ')}`;
}

interface KafkaJsError {
  name?: string;
  type?: string;
  code?: string | number;
  message?: string;
  cause?: KafkaJsError;
}

const TLS = /\b(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID)\b/;
const NET = /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|ENETUNREACH)\b/;

/** A kafkajs or network error as a SourceError that says what to fix, without any secret. */
export function describeError(e: unknown, cfg: KafkaConfig): SourceError {
  if (e instanceof SourceError) return e;
  // kafkajs wraps the real error in KafkaJSNumberOfRetriesExceeded / KafkaJSNonRetriableError
  const chain: KafkaJsError[] = [];
  for (let x = e as KafkaJsError | undefined; x && chain.length < 6; x = x.cause) chain.push(x);
  const named = (n: string) => chain.find((x) => x.name === n);
  const sasl = named('KafkaJSSASLAuthenticationError');
  if (sasl) {
    return new SourceError(
      'auth_failed',
      `${where(cfg)} refused the SASL ${cfg.sasl_mechanism.toUpperCase()} login of user ${JSON.stringify(cfg.username ?? '')}. Check the password in the environment variable ${cfg.password_env}, and username and sasl_mechanism in the config.`,
      { variable: cfg.password_env },
    );
  }
  const types = chain.map((x) => x.type).filter(Boolean);
  if (types.some((t) => /AUTHORIZATION_FAILED/.test(t!))) {
    return new SourceError('forbidden', `${where(cfg)}: not authorized (${types.find((t) => /AUTHORIZATION_FAILED/.test(t!))}). Grant the user Describe and Read on the topics and Read on the consumer group.`);
  }
  if (types.includes('UNKNOWN_TOPIC_OR_PARTITION')) {
    return new SourceError('not_found', `${where(cfg)}: a topic does not exist. Check topics in the config.`);
  }
  const text = chain.map((x) => `${x.code ?? ''} ${x.message ?? ''}`).join(' ');
  const cert = TLS.exec(text)?.[1];
  if (cert) {
    return new SourceError('tls_untrusted', `${where(cfg)} presented a TLS certificate this machine does not trust (${cert}). Set ssl_ca_file in the config to the PEM of the CA that signed it.`, { code: cert });
  }
  const net = NET.exec(text)?.[1];
  if (net || chain.some((x) => x.name === 'KafkaJSConnectionError' || x.name === 'KafkaJSBrokerNotFound')) {
    const how = cfg.security_protocol === 'plaintext' ? '' : `, that security_protocol (${cfg.security_protocol}) is what the listener expects`;
    return new SourceError('connection_failed', `Could not reach ${where(cfg)}${net ? ` (${net})` : ''}. Check bootstrap_servers in the config${how}, and that the brokers' advertised listeners are reachable from here.`, net ? { code: net } : undefined);
  }
  const last = chain[chain.length - 1];
  return new SourceError('connection_failed', `${where(cfg)}: ${last?.name ?? 'error'}: ${last?.message ?? String(e)}`);
}
