import { resolveConfig } from '../config.js';
import type { Static, TSchema } from '@sinclair/typebox';
import { SourceError, type SourceContext, type SourceDefinition } from '../types.js';
import { notConnected, type OAuthToken } from '../oauth.js';
import { tempTestDir } from './temp-dir.js';

export interface TestContextOptions {
  /** the source's name in sources.yml (default `contract_test`) */
  name?: string;
  /** project directory (default: a fresh temp dir) */
  projectDir?: string;
  /** environment variables `ctx.secret()` resolves (the process environment is NOT used) */
  env?: Record<string, string>;
  credentials?: Record<string, unknown>;
  fullRefresh?: boolean;
  startDate?: string;
  endDate?: string;
  lookbackDays?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** waits between HTTP retries (record the delays instead of waiting) */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** the provider OAuth token `ctx.oauthToken()` answers (default: not connected) */
  oauthToken?: OAuthToken;
}

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  msg: string;
  data?: Record<string, unknown>;
}

export type TestContext<C> = SourceContext<C> & {
  /** what the source logged */
  logs: LogEntry[];
  /** every value `secret()` handed out (to check none leaks) */
  revealed: Set<string>;
};

/** The config with the schema's defaults applied, as the engine passes it; throws listing schema errors. */
export function configWithDefaults<C>(source: SourceDefinition<any>, config: unknown): C {
  const { value, problems } = resolveConfig(source.configSchema, config);
  if (problems.length) throw new Error(`config does not match the ${source.type} schema: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  return value as C;
}

/** A SourceContext like the sync engine's, for tests and benchmarks. */
export function createTestContext<S extends TSchema>(source: SourceDefinition<S>, config: unknown, opts: TestContextOptions = {}): TestContext<Static<S>> {
  type C = Static<S>;
  const env = opts.env ?? {};
  const logs: LogEntry[] = [];
  const revealed = new Set<string>();
  const projectDir = opts.projectDir ?? tempTestDir('basin-source-');
  const log = (level: LogEntry['level']) => (msg: string, data?: Record<string, unknown>) => void logs.push({ level, msg, data });
  return {
    name: opts.name ?? 'contract_test',
    config: configWithDefaults<C>(source, config),
    projectDir,
    secret(name: string): string {
      const v = env[name];
      if (v === undefined || v === '') throw new SourceError('missing_secret', `The environment variable ${name} is not set; add it to .env or the environment.`, { variable: name });
      revealed.add(v);
      return v;
    },
    credentials: opts.credentials ?? {},
    options: { fullRefresh: opts.fullRefresh ?? false, startDate: opts.startDate, endDate: opts.endDate, lookbackDays: opts.lookbackDays },
    signal: opts.signal ?? new AbortController().signal,
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    fetch: opts.fetch ?? globalThis.fetch,
    sleep: opts.sleep,
    oauthToken: opts.oauthToken
      ? async () => {
          revealed.add(opts.oauthToken!.accessToken);
          return opts.oauthToken!;
        }
      : notConnected(source.type),
    logs,
    revealed,
  };
}
