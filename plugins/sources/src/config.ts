import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { checkAgainstSchema, closest, type ConfigFileSpec } from '@basin/core';
import type { SourceRegistry } from './registry.js';

export const SOURCE_NAME = '^[a-z0-9_]+$';

/** `dir` lies inside the project, also after following symbolic links of the part that exists */
function insideProject(projectDir: string, dir: string): boolean {
  const within = (root: string, p: string) => {
    const rel = path.relative(root, p);
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  if (!within(projectDir, dir)) return false;
  let real: string;
  let rootReal: string;
  try {
    rootReal = fs.realpathSync(projectDir);
    // the deepest existing ancestor: a link there may lead out of the project
    let probe = dir;
    while (!fs.existsSync(probe) && path.dirname(probe) !== probe) probe = path.dirname(probe);
    real = path.join(fs.realpathSync(probe), path.relative(probe, dir));
  } catch {
    return true;
  }
  return within(rootReal, real);
}

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
        // a file source's folder must lie inside the project (the sync refuses others; say so here, with the line)
        const cap = def.fileDirectory;
        if (!problems.length && cap?.insideProject) {
          const configured = (block as Record<string, unknown>)[cap.key];
          const dir = cap.directory(block as never, ctx.projectDir);
          if (typeof configured === 'string' && dir && !insideProject(ctx.projectDir, dir)) {
            ctx.issue(`${at}/${blockKey}/${cap.key}`, `"${configured}" is outside the project; a ${s.type} source reads a folder inside it (use a filesystem source for other places)`, {
              expected: 'a path inside the project, e.g. data/incoming',
            });
          }
        }
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
