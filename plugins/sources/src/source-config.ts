import { LiveConfigFile, type BasinConfig, type ConfigFileSpec, type LiveFileError, type Logger } from '@basin/core';
import type { SourceDefinition } from '@basin/sdk';
import type { SourceEntry, SourcesFile } from './config.js';
import type { SourceRegistry } from './registry.js';

export type RegisteredSource = SourceDefinition & { package: string };

/** The configured sources as start-up validated them (sources.yml with defaults); see SourcesConfig for the live list. */
export function configuredSources(config: BasinConfig): SourceEntry[] {
  if (!config.hasFile('sources')) return [];
  return (config.file<SourcesFile>('sources')?.sources ?? []) as SourceEntry[];
}

export function findSource(config: BasinConfig, name: string): SourceEntry | undefined {
  return configuredSources(config).find((s) => s.name === name);
}

/** the key holding a source's own settings: a block named like the type, or generic_config */
export function blockKey(def: SourceDefinition | undefined, type: string): string {
  return def?.configKey === 'generic' ? 'generic_config' : type;
}

export function sourceBlock(entry: SourceEntry, registry: SourceRegistry): Record<string, unknown> {
  const def = registry.get(entry.type);
  return ((entry as Record<string, unknown>)[blockKey(def, entry.type)] ?? {}) as Record<string, unknown>;
}

/** the local directory a file-directory source reads (its declared capability), absolute; null for other sources */
export function sourceDirectory(projectDir: string, entry: SourceEntry, registry: SourceRegistry): string | null {
  const cap = registry.get(entry.type)?.fileDirectory;
  if (!cap) return null;
  return cap.directory(sourceBlock(entry, registry), projectDir);
}

/** the raw schema a source loads into (DECISIONS §3 / issue 5) */
export const rawSchema = (source: string): string => `raw_${source}`;

/**
 * The running server's view of sources.yml: an edit is read, validated like at start-up and swapped
 * in when valid; an invalid edit keeps the running list and is reported by `error()` (issue 12 item 9).
 */
export class SourcesConfig {
  private readonly live: LiveConfigFile<SourcesFile>;

  constructor(
    private readonly config: BasinConfig,
    private readonly registry: SourceRegistry,
    spec: ConfigFileSpec,
    log: Logger,
  ) {
    this.live = new LiveConfigFile<SourcesFile>(config.projectDir, spec, (config.hasFile('sources') ? config.file<SourcesFile>('sources') : null) ?? { version: '1.0', sources: [] }, log);
  }

  /** every configured source, after taking in a valid edit of sources.yml */
  all(): SourceEntry[] {
    return (this.live.getSync().sources ?? []) as SourceEntry[];
  }

  find(name: string): SourceEntry | undefined {
    return this.all().find((s) => s.name === name);
  }

  block(entry: SourceEntry): Record<string, unknown> {
    return sourceBlock(entry, this.registry);
  }

  directory(entry: SourceEntry): string | null {
    return sourceDirectory(this.config.projectDir, entry, this.registry);
  }

  /** the pending problem of an edit that did not validate (the running list is the previous one) */
  error(): LiveFileError | null {
    this.live.getSync();
    return this.live.error();
  }
}

const SECRET_KEY = /secret|password|token|key/i;

/** A copy of a source's config with anything secret-looking masked (details endpoint, logs). */
export function maskConfig(value: unknown, keyName = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => maskConfig(v, keyName));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'credentials') out[k] = '********';
      // *_env fields name a variable, they hold no secret; still masked when the key says "secret" to be safe
      else if (SECRET_KEY.test(k) && (typeof v !== 'object' || v === null)) out[k] = v === undefined || v === null || v === '' ? v : '********';
      else out[k] = maskConfig(v, k);
    }
    return out;
  }
  return value;
}
