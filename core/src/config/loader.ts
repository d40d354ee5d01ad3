import fs from 'node:fs';
import path from 'node:path';
import { Type, type TSchema } from '@sinclair/typebox';
import { yaml } from '../lazy-deps.js';
import type { TomlError } from 'smol-toml';
import { dotenv, smolToml } from '../lazy-deps.js';
import type { ConfigFileSpec, ConfigIssue, ConfigSectionSpec, ValidateContext } from './types.js';
import { locateYaml } from './locate.js';
import { keepYamlValue, keptYamlValue } from './yaml-values.js';
import { checkAgainstSchema } from './schema-check.js';
import { closest } from './suggest.js';
import { corePlatformSettings, ProjectSection } from './project-schema.js';
import { warehouseSectionSpec } from '../warehouse/config.js';
import { manifestPlatformExtensions, platformSectionSchema, type PlatformExtension } from './platform-settings.js';

export const PROJECT_FILE = '.basin/project.yml';

export interface LoadedFile {
  spec: ConfigFileSpec;
  /** the file that was read (may be an alias), or null when absent */
  resolvedPath: string | null;
  value: any;
}

export class ConfigLoadError extends Error {
  constructor(readonly issues: ConfigIssue[]) {
    super(`Configuration has ${issues.filter((i) => i.severity === 'error').length} error(s):\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'ConfigLoadError';
  }
}

export function formatIssue(i: ConfigIssue): string {
  const where = `${i.file}${i.line ? `:${i.line}:${i.column ?? 1}` : ''}`;
  const p = i.path && i.path !== '/' ? ` ${pointerToDots(i.path)}:` : '';
  const exp = i.expected && !i.suggestion ? ` (expected ${i.expected})` : '';
  return `${i.severity === 'warning' ? 'warning' : 'error'}: ${where}${p} ${i.message}${exp}`;
}

export function pointerToDots(p: string): string {
  return p
    .split('/')
    .filter(Boolean)
    .map((s, idx) => (/^\d+$/.test(s) ? `[${s}]` : idx === 0 ? s : `.${s}`))
    .join('');
}

/**
 * Core-owned parts of project.yml, with the `platform` section made of core's settings and the installed
 * plugins' (their manifests, plus `configSections` entries for `platform` of plugins given in code).
 */
export function coreSections(projectDir: string, extensions: PlatformExtension[] = []): ConfigSectionSpec[] {
  return [
    { section: 'project', schema: ProjectSection },
    { section: 'platform', schema: platformSectionSchema(corePlatformSettings, [...manifestPlatformExtensions(projectDir), ...extensions]) },
    { section: 'plugins', schema: Type.Array(Type.String(), { default: [] }) },
    warehouseSectionSpec(),
  ];
}

interface ParsedFile {
  raw: unknown;
  locate: (pointer: string, at?: 'key' | 'value') => { line: number; column: number } | undefined;
}

function readParsed(abs: string, rel: string, spec: Pick<ConfigFileSpec, 'format' | 'sensitive'>, issues: ConfigIssue[]): ParsedFile | null {
  const text = fs.readFileSync(abs, 'utf8');
  const none = () => undefined;
  if (spec.format === 'yaml') {
    // a text parsed before gives its value without the parser, which then runs only to place an issue
    const kept = spec.sensitive ? undefined : keptYamlValue(text);
    if (kept) {
      let placed: ((p: string, at?: 'key' | 'value') => { line: number; column: number } | undefined) | undefined;
      const locate = (p: string, at?: 'key' | 'value') => (placed ??= yamlLocator(text))(p, at);
      return { raw: kept.value ?? {}, locate };
    }
    const { LineCounter, parseDocument } = yaml();
    const lc = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
    if (doc.errors.length) {
      for (const e of doc.errors) {
        const { line, col } = lc.linePos(e.pos[0]);
        // never echo file content of a sensitive file
        const msg = spec.sensitive ? 'invalid YAML syntax' : `invalid YAML: ${e.message.split('\n')[0]}`;
        issues.push({ file: rel, line, column: col, path: '/', message: msg, severity: 'error' });
      }
      return null;
    }
    const value = doc.toJS();
    if (!spec.sensitive) keepYamlValue(text, value);
    return { raw: value ?? {}, locate: (p, at) => locateYaml(doc, lc, p, at) };
  }
  if (spec.format === 'toml') {
    try {
      return { raw: smolToml().parse(text), locate: none };
    } catch (e) {
      const te = e as TomlError;
      const msg = spec.sensitive ? 'invalid TOML syntax' : `invalid TOML: ${String(te.message).split('\n')[0]}`;
      issues.push({ file: rel, line: te.line, column: te.column, path: '/', message: msg, severity: 'error' });
      return null;
    }
  }
  if (spec.format === 'env') return { raw: dotenv().parse(text), locate: none };
  return { raw: true, locate: none };
}

/** places pointers in a text that parsed without errors before */
function yamlLocator(text: string): ParsedFile['locate'] {
  const { LineCounter, parseDocument } = yaml();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  return (p, at) => locateYaml(doc, lc, p, at);
}

function makeCtx(rel: string, parsed: ParsedFile | null, issues: ConfigIssue[], projectDir: string, prefix = ''): ValidateContext {
  return {
    projectDir,
    issue(p, message, extra) {
      const full = prefix + p;
      // unknown keys point at the key; wrong values at the value
      const loc = parsed?.locate(full, /^unknown (key|section)/.test(message) ? 'key' : 'value');
      issues.push({ file: rel, path: full, message, severity: extra?.severity ?? 'error', expected: extra?.expected, suggestion: extra?.suggestion, ...loc });
    },
  };
}

function applySchema(schema: TSchema, raw: unknown, ctx: ValidateContext, sensitive?: boolean): unknown {
  const { value, problems } = checkAgainstSchema(schema, raw);
  for (const pr of problems) {
    ctx.issue(pr.path, sensitive ? pr.message.replace(/".*?"/g, '"…"') : pr.message, { expected: pr.expected, suggestion: pr.suggestion });
  }
  return value;
}

export interface LoadOptions {
  projectDir: string;
  files: ConfigFileSpec[];
  sections: Array<ConfigSectionSpec & { owner: string }>;
}

export interface LoadResult {
  project: Record<string, any>;
  files: Map<string, LoadedFile>;
  issues: ConfigIssue[];
}

/** Loads and validates project.yml and every declared file, collecting all problems. Never throws for content. */
export function loadConfig(opts: LoadOptions): LoadResult {
  const issues: ConfigIssue[] = [];
  const projectDir = path.resolve(opts.projectDir);
  const projAbs = path.join(projectDir, PROJECT_FILE);
  const project: Record<string, any> = {};
  // a plugin's `platform` entry extends core's section instead of being a section of its own
  const platformParts = opts.sections.filter((s) => s.section === 'platform');
  const extensions = platformParts.map((s) => ({ owner: s.owner, properties: (s.schema as { properties?: Record<string, TSchema> }).properties ?? {} }));
  const sections = [...coreSections(projectDir, extensions).map((s) => ({ ...s, owner: 'core' })), ...opts.sections.filter((s) => s.section !== 'platform')];

  if (!fs.existsSync(projAbs)) {
    issues.push({ file: PROJECT_FILE, path: '/', message: `no Basin project here (${projectDir}); run "basin init DIR" or pass --project DIR`, severity: 'error' });
  } else {
    const parsed = readParsed(projAbs, PROJECT_FILE, { format: 'yaml' }, issues);
    if (parsed) {
      const raw = (parsed.raw ?? {}) as Record<string, unknown>;
      const ctx = makeCtx(PROJECT_FILE, parsed, issues, projectDir);
      if (typeof raw !== 'object' || Array.isArray(raw)) ctx.issue('/', 'expected a mapping of sections');
      const known = sections.map((s) => s.section);
      for (const key of Object.keys(raw)) {
        if (known.includes(key)) continue;
        const s = closest(key, known);
        ctx.issue(`/${key}`, s ? `unknown section "${key}"; did you mean ${s}?` : `section "${key}" is not used by any installed plugin`, {
          severity: s ? 'error' : 'warning',
          suggestion: s,
        });
      }
      for (const sec of sections) {
        const secCtx = makeCtx(PROJECT_FILE, parsed, issues, projectDir, `/${sec.section}`);
        const present = raw[sec.section] !== undefined;
        if (!present && sec.section === 'project') {
          ctx.issue('/project', 'missing section "project" (name, created, created_by, purpose are required)');
          continue;
        }
        project[sec.section] = applySchema(sec.schema, raw[sec.section] ?? (sec.section === 'plugins' ? [] : {}), secCtx);
        sec.validate?.(project[sec.section], secCtx);
      }
    }
  }

  const files = new Map<string, LoadedFile>();
  for (const spec of opts.files) files.set(spec.id, loadConfigFile(projectDir, spec, issues));
  return { project, files, issues };
}

/**
 * Reads and validates one declared file (the first existing of its path and aliases); problems go to
 * `issues`. A missing, unreadable or unparsable file stands in with the schema defaults.
 */
export function loadConfigFile(projectDir: string, spec: ConfigFileSpec, issues: ConfigIssue[]): LoadedFile {
  const candidates = [spec.path, ...(spec.aliases ?? [])];
  const found = candidates.filter((c) => fs.existsSync(path.join(projectDir, c)));
  if (found.length > 1) {
    issues.push({ file: found[1]!, path: '/', message: `both ${found.join(' and ')} exist; ${found[0]} is used, remove the other`, severity: 'warning' });
  }
  const rel = found[0] ?? null;
  if (!rel) {
    if (spec.required) issues.push({ file: spec.path, path: '/', message: `required file ${spec.path} is missing`, severity: 'error' });
    const value = spec.schema && spec.format !== 'presence' ? checkAgainstSchema(spec.schema, {}).value : spec.format === 'presence' ? false : {};
    return { spec, resolvedPath: null, value };
  }
  const parsed = readParsed(path.join(projectDir, rel), rel, spec, issues);
  if (!parsed) return { spec, resolvedPath: rel, value: spec.schema ? checkAgainstSchema(spec.schema, {}).value : {} };
  const ctx = makeCtx(rel, parsed, issues, projectDir);
  let raw: unknown = parsed.raw ?? {};
  if (spec.normalize) raw = spec.normalize(raw, (p, m) => ctx.issue(p, m, { severity: 'warning' }));
  const value = spec.schema ? applySchema(spec.schema, raw, ctx, spec.sensitive) : raw;
  spec.validate?.(value, ctx);
  return { spec, resolvedPath: rel, value };
}
