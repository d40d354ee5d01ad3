import type { BasinConfig } from '@basin/core';
import type { SourceEntry, SourceRegistry, SourcesFile } from '@basin/plugin-sources/contract';
import type { SourceDefinition } from '@basin/sdk';

export type RegisteredSource = SourceDefinition & { package: string };

/** The configured sources (sources.yml, validated, with defaults). */
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

/** the local directory a file source reads (its `directory` setting), absolute; null for other sources */
export function sourceDirectory(config: BasinConfig, entry: SourceEntry, registry: SourceRegistry): string | null {
  const dir = sourceBlock(entry, registry).directory;
  if (typeof dir !== 'string' || !dir) return null;
  const local = dir.startsWith('file://') ? new URL(dir).pathname : dir;
  return config.resolve(local);
}

/** the raw schema a source loads into (DECISIONS §3 / issue 5) */
export const rawSchema = (source: string): string => `raw_${source}`;

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
