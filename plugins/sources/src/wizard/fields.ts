import { checkAgainstSchema, parseYaml } from '@basin/core';
import type { SourceDefinition, TSchema } from '@basin/sdk';

/**
 * The schema walk behind `basin source add` (and the UI's add form): which settings of a source type
 * to ask for, given the answers so far, how each one is typed (format and example), and how a typed
 * answer becomes a value (validated against the setting's own schema, so a mistake is caught when it
 * is typed). A property may carry `'x-when': { other_key: [values] }` to apply only after those
 * choices (the auth fields of the chosen auth type), and `examples: [...]` for its example.
 */

export type FieldKind = 'string' | 'number' | 'boolean' | 'choice' | 'list' | 'map' | 'objects' | 'yaml';

export interface WizardField {
  key: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  default?: unknown;
  choices?: string[];
  /** names an environment variable that holds a secret (`*_env`): its value goes to .env, never to sources.yml */
  secretEnv: boolean;
  /** the local directory of a file-directory source (checked, its matching files listed) */
  directory: boolean;
  /** how to type it, with an example */
  format: string;
  example: string;
  description?: string;
  /** for `objects`: the settings of one item */
  item?: WizardField[];
  schema: TSchema;
}

type Json = Record<string, any>;

const literalChoices = (s: Json): string[] | null => {
  const variants: Json[] = s.anyOf ?? s.oneOf ?? [];
  const lits = variants.filter((v) => v.const !== undefined).map((v) => String(v.const));
  if (s.enum) return (s.enum as unknown[]).map(String);
  if (lits.length) return lits;
  for (const v of variants) {
    const inner = v.anyOf || v.oneOf ? literalChoices(v) : null;
    if (inner) return inner;
  }
  return null;
};

function kindOf(s: Json): FieldKind {
  if (literalChoices(s)) return 'choice';
  if (s.type === 'string') return 'string';
  if (s.type === 'integer' || s.type === 'number') return 'number';
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'array') {
    const it = (s.items ?? {}) as Json;
    if (it.type === 'object' && it.properties) return 'objects';
    if (it.type === 'string' || it.type === 'integer' || it.type === 'number' || literalChoices(it)) return 'list';
    return 'yaml';
  }
  if (s.type === 'object' && (s.patternProperties || (s.additionalProperties && typeof s.additionalProperties === 'object')) && !s.properties) return 'map';
  return 'yaml';
}

function exampleOf(key: string, s: Json, kind: FieldKind): string {
  if (Array.isArray(s.examples) && s.examples.length) return typeof s.examples[0] === 'string' ? s.examples[0] : JSON.stringify(s.examples[0]);
  if (s.default !== undefined && kind !== 'objects') return typeof s.default === 'string' ? s.default : JSON.stringify(s.default);
  if (key.endsWith('_env')) return key.replace(/_env$/, '').toUpperCase();
  if (kind === 'choice') return literalChoices(s)![0]!;
  if (kind === 'number') return String(s.minimum ?? 10);
  if (kind === 'boolean') return 'yes';
  if (kind === 'list') return key === 'resources' || key === 'tables' ? 'customers, orders' : 'a, b';
  if (kind === 'map') return 'Accept=application/json, X-Team=data';
  if (typeof s.pattern === 'string' && s.pattern.startsWith('^https?://')) return 'https://api.example.com';
  if (/url/i.test(key)) return 'https://example.com';
  if (/dir|directory|path/i.test(key)) return 'data/incoming';
  if (/pattern|glob/i.test(key)) return '*.csv';
  return 'text';
}

function formatOf(key: string, s: Json, kind: FieldKind, example: string): string {
  const eg = `e.g. ${example}`;
  switch (kind) {
    case 'choice':
      return `one of ${literalChoices(s)!.join(', ')} (name or number)`;
    case 'number':
      return `${s.type === 'integer' ? 'a whole number' : 'a number'}${s.minimum !== undefined ? ` >= ${s.minimum}` : ''}${s.maximum !== undefined ? ` <= ${s.maximum}` : ''}, ${eg}`;
    case 'boolean':
      return 'yes or no';
    case 'list':
      return `a comma-separated list, ${eg}`;
    case 'map':
      return `name=value pairs separated by commas, ${eg}`;
    case 'objects':
      return 'one or more items, asked one at a time';
    case 'yaml':
      return `a value in YAML flow style, ${eg}`;
    default:
      if (key.endsWith('_env')) return `the name of an environment variable holding the secret (the value goes to .env), ${eg}`;
      if (typeof s.pattern === 'string' && s.pattern.startsWith('^https?://')) return `a URL starting with http:// or https://, ${eg}`;
      return `text, ${eg}`;
  }
}

function fieldOf(key: string, s: Json, required: boolean, directoryKeys: Set<string>): WizardField {
  const kind = kindOf(s);
  const example = exampleOf(key, s, kind);
  const field: WizardField = {
    key,
    label: key,
    kind,
    required,
    secretEnv: kind === 'string' && key.endsWith('_env'),
    directory: directoryKeys.has(key),
    format: formatOf(key, s, kind, example),
    example,
    description: typeof s.description === 'string' ? s.description : undefined,
    schema: s as TSchema,
  };
  if (s.default !== undefined) field.default = s.default;
  if (kind === 'choice') field.choices = literalChoices(s)!;
  if (kind === 'objects') field.item = objectFields((s.items ?? {}) as Json, {}, new Set()).required;
  return field;
}

/** does a property's `x-when` hold for the answers so far (defaults count as answers) */
function applies(s: Json, answers: Record<string, unknown>, defaults: Record<string, unknown>): boolean {
  const when = s['x-when'] as Record<string, unknown[]> | undefined;
  if (!when) return true;
  return Object.entries(when).every(([k, values]) => values.map(String).includes(String(answers[k] ?? defaults[k])));
}

function objectFields(schema: Json, answers: Record<string, unknown>, directoryKeys: Set<string>): { required: WizardField[]; optional: WizardField[] } {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const requiredKeys = new Set<string>(schema.required ?? []);
  const defaults = Object.fromEntries(Object.entries(props).filter(([, p]) => p.default !== undefined).map(([k, p]) => [k, p.default]));
  const required: WizardField[] = [];
  const optional: WizardField[] = [];
  // settings other settings depend on (an auth type) are asked even when they have a default
  const drivers = new Set(Object.values(props).flatMap((p) => Object.keys((p['x-when'] as object | undefined) ?? {})));
  for (const [key, p] of Object.entries(props)) {
    if (!applies(p, answers, defaults)) continue;
    // required by the schema without a default, or by the choices made (x-when with x-required)
    const needed = (requiredKeys.has(key) && p.default === undefined) || (!!p['x-when'] && p['x-required'] === true);
    (needed || drivers.has(key) ? required : optional).push(fieldOf(key, p, needed, directoryKeys));
  }
  return { required, optional };
}

/**
 * The settings of a source type that apply to the answers so far: `required` ones are asked in
 * order (a choice with a default is asked too, since later settings depend on it); `optional` ones
 * only when the user wants to set more.
 */
export function wizardFields(def: Pick<SourceDefinition, 'configSchema' | 'fileDirectory'>, answers: Record<string, unknown>): { required: WizardField[]; optional: WizardField[] } {
  const directoryKeys = new Set<string>(def.fileDirectory ? [def.fileDirectory.key] : []);
  return objectFields(def.configSchema as Json, answers, directoryKeys);
}

const YES = /^(y|yes|true|1|on)$/i;
const NO = /^(n|no|false|0|off)$/i;

/**
 * Turns what was typed for a setting into its value, checked against the setting's schema.
 * Empty text means "not set" (`value` undefined, no error) unless the setting is required.
 */
export function parseAnswer(field: WizardField, text: string): { value?: unknown; error?: string } {
  const t = text.trim();
  if (!t) {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { error: `${field.label} is required (${field.format})` } : {};
  }
  let value: unknown;
  switch (field.kind) {
    case 'string':
      value = t;
      break;
    case 'number':
      value = Number(t);
      if (!Number.isFinite(value as number)) return { error: `"${t}" is not a number; ${field.format}` };
      break;
    case 'boolean':
      if (YES.test(t)) value = true;
      else if (NO.test(t)) value = false;
      else return { error: `"${t}" is not yes or no` };
      break;
    case 'choice': {
      const choices = field.choices ?? [];
      const byNumber = /^\d+$/.test(t) ? choices[Number(t) - 1] : undefined;
      value = byNumber ?? choices.find((c) => c.toLowerCase() === t.toLowerCase());
      if (value === undefined) return { error: `"${t}" is not one of ${choices.join(', ')}` };
      break;
    }
    case 'list':
      value = t.split(',').map((x) => x.trim()).filter(Boolean);
      if ((field.schema as Json).items?.type === 'integer' || (field.schema as Json).items?.type === 'number') value = (value as string[]).map(Number);
      break;
    case 'map': {
      const out: Record<string, string> = {};
      for (const pair of t.split(',')) {
        const eq = pair.indexOf('=');
        if (eq <= 0) return { error: `"${pair.trim()}" is not name=value; ${field.format}` };
        out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
      }
      value = out;
      break;
    }
    default:
      try {
        value = parseYaml(t);
      } catch (e) {
        return { error: `not valid YAML: ${(e as Error).message.split('\n')[0]}` };
      }
  }
  const { problems } = checkAgainstSchema(field.schema, value);
  if (problems.length) return { error: `${problems[0]!.message}${problems[0]!.path !== '/' && problems[0]!.path ? ` (at ${problems[0]!.path})` : ''}; expected ${field.format}` };
  return { value };
}

/** Implemented source types grouped by category, each group sorted, in a stable order (the wizard's first list). */
export function sourceTypeGroups<D extends Pick<SourceDefinition, 'type' | 'category' | 'title' | 'implemented'>>(defs: D[]): Array<{ category: string; types: D[] }> {
  const groups = new Map<string, D[]>();
  for (const d of defs) {
    if (d.implemented === false) continue;
    const g = groups.get(d.category) ?? [];
    g.push(d);
    groups.set(d.category, g);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === 'files' ? -1 : b === 'files' ? 1 : a.localeCompare(b))).map(([category, types]) => ({ category, types: types.sort((a, b) => a.type.localeCompare(b.type)) }));
}

/** the variable name the wizard suggests for a `*_env` setting: SOURCE_NAME + the setting without `_env` */
export function suggestedEnvName(source: string, key: string): string {
  return `${source}_${key.replace(/_env$/, '')}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}
