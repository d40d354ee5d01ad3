import type { TSchema } from '@sinclair/typebox';

export interface ConfigIssue {
  file: string;
  line?: number;
  column?: number;
  /** JSON-pointer-like path inside the file, e.g. /sources/0/lookback_days */
  path: string;
  message: string;
  expected?: string;
  suggestion?: string;
  severity: 'error' | 'warning';
}

export type ConfigFormat = 'yaml' | 'toml' | 'env' | 'presence';

export interface ValidateContext {
  projectDir: string;
  /** adds an issue at a path of this file; the loader fills in line and column */
  issue(path: string, message: string, extra?: { expected?: string; suggestion?: string; severity?: 'error' | 'warning' }): void;
}

/** A configuration file owned by a plugin (or core). */
export interface ConfigFileSpec {
  id: string;
  /** path relative to the project directory */
  path: string;
  /** other accepted file names, first existing wins after `path` */
  aliases?: string[];
  format: ConfigFormat;
  /** typebox schema of the whole file; defaults are applied from it */
  schema?: TSchema;
  /** values never appear in logs, errors or API responses */
  sensitive?: boolean;
  /** missing file is an error (otherwise the schema defaults stand in) */
  required?: boolean;
  /** rewrites accepted aliases (keys) into canonical form before validation */
  normalize?: (raw: unknown, warn: (path: string, message: string) => void) => unknown;
  /** extra checks beyond the schema (cross-field rules, per-type blocks) */
  validate?: (value: any, ctx: ValidateContext) => void;
  /**
   * asynchronous checks of a schema-valid file (e.g. parsing SQL the way the runtime will), run by
   * `basin config validate` and before a live reload swaps the file in; returns the problems found
   */
  check?: (value: any) => Promise<Array<{ path: string; message: string }>>;
}

/** A section of `.basin/project.yml` owned by a plugin, e.g. `auth` or `api`. */
export interface ConfigSectionSpec {
  section: string;
  schema: TSchema;
  validate?: (value: any, ctx: ValidateContext) => void;
}
