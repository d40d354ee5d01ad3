import path from 'node:path';
import fs from 'node:fs';
import { Type, type TSchema } from '@sinclair/typebox';
import { yamlValue } from './yaml-values.js';
import { discoverWorkspacePackages, resolveProjectPackages, type DiscoveredPackage } from '../plugin/discovery.js';

/**
 * The `platform` section's settings, typed. Core declares its own three; a plugin adds its settings by
 * declaration merging in its contract (the values come from the schema in its package.json):
 *   declare module '@basin/core' { interface PlatformSettings { bi_port: number } }
 */
export interface PlatformSettings {
  db_path: string;
  data_dir: string;
  port: number;
}

/** A plugin's contribution to the `platform` section: settings (JSON Schema with SPEC defaults) and who owns them. */
export interface PlatformExtension {
  owner: string;
  properties: Record<string, TSchema>;
}

/**
 * The settings plugins declare in their package.json manifest, `"basin": {"platform": {"<setting>": <JSON
 * Schema with its default>}}`. A manifest is data, read synchronously, so validating project.yml (and the
 * CLI commands that run before any plugin code is imported) sees every installed plugin's settings.
 */
export function manifestPlatformExtensions(projectDir: string): PlatformExtension[] {
  const pkgs: DiscoveredPackage[] = [...workspacePackages()];
  for (const pkg of projectListedPackages(projectDir)) if (!pkgs.some((p) => p.name === pkg.name)) pkgs.push(pkg);
  return pkgs
    .filter((p) => p.meta.platform && typeof p.meta.platform === 'object')
    .map((p) => ({ owner: p.name, properties: fromJsonSchemaProperties(p.meta.platform as Record<string, unknown>, p.name) }));
}

let cachedWorkspace: DiscoveredPackage[] | undefined;
function workspacePackages(): DiscoveredPackage[] {
  return (cachedWorkspace ??= discoverWorkspacePackages());
}

/** The names `.basin/project.yml` lists under `plugins:`; none when the file is missing or broken (the config loader reports it). */
export function projectPluginNames(projectDir: string): string[] {
  try {
    const raw = yamlValue(fs.readFileSync(path.join(projectDir, '.basin', 'project.yml'), 'utf8')) as { plugins?: unknown } | null;
    return Array.isArray(raw?.plugins) ? raw.plugins.filter((n: unknown): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

function projectListedPackages(projectDir: string): DiscoveredPackage[] {
  try {
    return resolveProjectPackages(projectDir, projectPluginNames(projectDir));
  } catch {
    return []; // an uninstalled plugin is reported by the plugin loader
  }
}

/** The `platform` section's schema: core's settings plus every extension; two owners of one setting is a packaging error. */
export function platformSectionSchema(core: Record<string, TSchema>, extensions: PlatformExtension[]): TSchema {
  const props: Record<string, TSchema> = { ...core };
  const owners = new Map<string, string>(Object.keys(core).map((k) => [k, 'core']));
  for (const ext of extensions) {
    for (const [key, schema] of Object.entries(ext.properties)) {
      const prev = owners.get(key);
      if (prev && prev !== ext.owner) throw new Error(`platform.${key} is declared by both ${prev} and ${ext.owner}; a setting has one owner.`);
      owners.set(key, ext.owner);
      props[key] = schema;
    }
  }
  return Type.Object(props, { additionalProperties: false, default: {} });
}

function fromJsonSchemaProperties(props: Record<string, unknown>, owner: string): Record<string, TSchema> {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fromJsonSchema(v, `${owner}: platform.${k}`)]));
}

/** The JSON Schema subset manifests use, as TypeBox schemas (the config validator needs TypeBox's kinds). */
export function fromJsonSchema(s: unknown, where: string): TSchema {
  if (!s || typeof s !== 'object') throw new Error(`${where}: a setting's schema must be a JSON Schema object`);
  const { type, items, anyOf, enum: en, ...rest } = s as Record<string, unknown>;
  if (Array.isArray(anyOf)) return Type.Union(anyOf.map((x, i) => fromJsonSchema(x, `${where}.anyOf[${i}]`)), rest);
  if (Array.isArray(en)) return Type.Union(en.map((v) => Type.Literal(v as string | number | boolean)), rest);
  switch (type) {
    case 'string':
      return Type.String(rest);
    case 'integer':
      return Type.Integer(rest);
    case 'number':
      return Type.Number(rest);
    case 'boolean':
      return Type.Boolean(rest);
    case 'null':
      return Type.Null(rest);
    case 'array':
      return Type.Array(fromJsonSchema(items, `${where}.items`), rest);
    default:
      throw new Error(`${where}: unsupported JSON Schema type ${JSON.stringify(type)} (use string, integer, number, boolean, null, array, enum or anyOf)`);
  }
}
