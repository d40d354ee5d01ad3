import { Type, type Static } from '@sinclair/typebox';
import { checkAgainstSchema, closest, type ConfigFileSpec } from '@basin/core';
import type { SourceRegistry } from './registry.js';

export const SOURCE_NAME = '^[a-z0-9_]+$';

/** Fields every source has (SPEC "sources.yml"); the typed block or generic_config is checked per type. */
export const CommonSourceFields = {
  name: Type.String({ pattern: SOURCE_NAME }),
  type: Type.String({ minLength: 1 }),
  enabled: Type.Boolean({ default: true }),
  description: Type.Optional(Type.String()),
  tags: Type.Array(Type.String(), { default: [] }),
  lookback_days: Type.Optional(Type.Integer({ minimum: 0 })),
  generic_config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};
export const SourceEntry = Type.Object(CommonSourceFields, { additionalProperties: true });
export type SourceEntry = Static<typeof SourceEntry> & Record<string, unknown>;

export const SourcesFile = Type.Object(
  { version: Type.Literal('1.0', { default: '1.0' }), sources: Type.Array(SourceEntry, { default: [] }) },
  { additionalProperties: false, default: {} },
);
export type SourcesFile = { version: '1.0'; sources: SourceEntry[] };

/** sources.yml, validated against each source package's own config schema. */
export function sourcesFileSpec(registry: SourceRegistry): ConfigFileSpec {
  return {
    id: 'sources',
    path: '.basin/sources.yml',
    format: 'yaml',
    schema: SourcesFile,
    normalize(raw) {
      // YAML reads `version: 1.0` as a number; accept it as the string the spec means
      if (raw && typeof raw === 'object' && (raw as any).version === 1) return { ...(raw as object), version: '1.0' };
      return raw;
    },
    validate(value: SourcesFile, ctx) {
      const seen = new Set<string>();
      value.sources.forEach((s, i) => {
        const at = `/sources/${i}`;
        if (seen.has(s.name)) ctx.issue(`${at}/name`, `duplicate source name "${s.name}"`);
        seen.add(s.name);
        const def = registry.get(s.type);
        if (!def) {
          const sug = closest(s.type, registry.types());
          ctx.issue(`${at}/type`, sug ? `unknown source type "${s.type}"; did you mean ${sug}?` : `unknown source type "${s.type}"`, { suggestion: sug, expected: 'a registered source type (GET /api/sources/types lists them)' });
          return;
        }
        const blockKey = def.configKey === 'generic' ? 'generic_config' : s.type;
        const allowed = [...Object.keys(CommonSourceFields), blockKey];
        for (const key of Object.keys(s)) {
          if (allowed.includes(key)) continue;
          const sug = closest(key, allowed);
          ctx.issue(`${at}/${key}`, sug ? `unknown key "${key}"; did you mean ${sug}?` : `unknown key "${key}" for a ${s.type} source`, { suggestion: sug, expected: `one of: ${allowed.join(', ')}` });
        }
        if (blockKey !== 'generic_config' && s.generic_config !== undefined) {
          ctx.issue(`${at}/generic_config`, `a ${s.type} source takes its settings under "${s.type}:", not generic_config`);
        }
        const { value: block, problems } = checkAgainstSchema(def.configSchema, s[blockKey] ?? {});
        for (const p of problems) ctx.issue(`${at}/${blockKey}${p.path === '/' ? '' : p.path}`, p.message, { expected: p.expected, suggestion: p.suggestion });
        // cross-field rules a schema cannot say (e.g. basic auth needs both *_env names), once the shape is right
        if (!problems.length) for (const p of def.validateConfig?.(block as never) ?? []) ctx.issue(`${at}/${blockKey}${p.path === '/' ? '' : p.path}`, p.message);
        s[blockKey] = block;
      });
    },
  };
}

/** .ingest/secrets.toml: [sources.<name>] and [sources.<name>.credentials]; sensitive, never echoed. */
export const secretsFileSpec: ConfigFileSpec = {
  id: 'ingest-secrets',
  path: '.ingest/secrets.toml',
  format: 'toml',
  sensitive: true,
  schema: Type.Object({ sources: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), { default: {} }) }, { additionalProperties: true, default: {} }),
};

/** .ingest/config.toml: [load] truncate_staging_dataset; [sources.<name>] start_date. */
export const ingestConfigFileSpec: ConfigFileSpec = {
  id: 'ingest-config',
  path: '.ingest/config.toml',
  format: 'toml',
  schema: Type.Object(
    {
      load: Type.Object({ truncate_staging_dataset: Type.Boolean({ default: false }) }, { additionalProperties: false, default: {} }),
      sources: Type.Record(
        Type.String(),
        Type.Object({ start_date: Type.Optional(Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}' }), Type.Date()])) }, { additionalProperties: true }),
        { default: {} },
      ),
    },
    { additionalProperties: false, default: {} },
  ),
};
