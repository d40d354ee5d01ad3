import path from 'node:path';
import type { BasinConfig } from '@basin/core';
import type { SourceEntry } from '@basin/plugin-sources/contract';
import { notConnected, redactSecrets, SourceError, type OAuthToken, type SourceContext, type SourceLogger } from '@basin/sdk';

export interface ContextInput {
  config: BasinConfig;
  entry: SourceEntry;
  block: Record<string, unknown>;
  fullRefresh: boolean;
  startDate?: string;
  endDate?: string;
  signal: AbortSignal;
  log: SourceLogger;
  /** every secret value handed to the source is added here so logs can redact it */
  secrets: Set<string>;
  /** the provider OAuth token of a source type (from the secrets plugin), when one is installed */
  oauthToken?: (sourceType: string) => Promise<OAuthToken>;
}

const asDate = (v: unknown): string | undefined => {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'string' && v) return v.slice(0, 10);
  return undefined;
};

/**
 * Every secret value a source was given in this process (bounded): the server log masks them, in
 * every encoding, through core's log redactor (registered by the plugin), whatever code logs them.
 */
export const knownSecrets = new Set<string>();
const KNOWN_SECRETS_MAX = 2000;
function remember(into: Set<string>, v: string): void {
  into.add(v);
  if (knownSecrets.size < KNOWN_SECRETS_MAX) knownSecrets.add(v);
}

/** Builds what a source's check/discover/read receives. Secrets resolve lazily, so only used ones must exist. */
export function buildSourceContext(i: ContextInput): SourceContext {
  const { config, entry } = i;
  const secretsFile = (config.hasFile('ingest-secrets') ? config.sensitive<{ sources?: Record<string, Record<string, unknown>> }>('ingest-secrets') : {}) ?? {};
  const own = secretsFile.sources?.[entry.name] ?? {};
  const credentials = (own.credentials && typeof own.credentials === 'object' ? own.credentials : {}) as Record<string, unknown>;
  collectStrings(credentials, i.secrets);
  const ingestConfig = config.hasFile('ingest-config') ? config.file<{ sources?: Record<string, { start_date?: unknown }> }>('ingest-config') : {};
  const startDate = i.startDate ?? asDate(ingestConfig.sources?.[entry.name]?.start_date);
  return {
    name: entry.name,
    config: i.block,
    projectDir: config.projectDir,
    secret(name: string): string {
      const v = config.env(name) ?? (typeof own[name] === 'string' ? (own[name] as string) : undefined);
      if (v === undefined || v === '') {
        throw new SourceError(
          'missing_secret',
          `Environment variable "${name}" is not set; source "${entry.name}" needs it. Add ${name}=... to ${path.join(config.projectDir, '.env')} or the server's environment.`,
          { variable: name },
        );
      }
      remember(i.secrets, v);
      return v;
    },
    credentials,
    options: {
      fullRefresh: i.fullRefresh,
      startDate,
      endDate: i.endDate,
      lookbackDays: i.fullRefresh ? undefined : entry.lookback_days,
    },
    signal: i.signal,
    log: i.log,
    fetch: globalThis.fetch,
    async oauthToken(): Promise<OAuthToken> {
      const token = await (i.oauthToken ? i.oauthToken(entry.type) : notConnected(entry.type)());
      i.secrets.add(token.accessToken);
      return token;
    },
  };
}

function collectStrings(v: unknown, into: Set<string>): void {
  if (typeof v === 'string' && v.length >= 4) remember(into, v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) collectStrings(x, into);
}

/** Replaces every known secret value in a message (error text from a vendor may echo a token). */
export function redact(message: string, secrets: Set<string>): string {
  return redactSecrets(message, secrets);
}
