import type { Static, TSchema } from '@sinclair/typebox';
import type { OAuthProviderManifest, OAuthToken } from './oauth.js';

export type SourceCategory = 'files' | 'api' | 'database' | 'saas' | 'crm' | 'marketing' | 'analytics' | 'support' | 'productivity' | 'stream' | 'payments' | 'engineering' | 'custom' | (string & {});
export type AuthKind = 'none' | 'apiKey' | 'oauth2' | 'basic' | 'serviceAccount';

export interface SourceCapabilities {
  incremental: boolean;
  dateRange: boolean;
  customQueries: boolean;
  performanceMetrics?: boolean;
}

/** A column as a source reports it; `type` is a DuckDB type name (VARCHAR, BIGINT, DOUBLE, TIMESTAMP, JSON, ...). */
export interface ColumnSpec {
  name: string;
  type: string;
  nullable?: boolean;
}

export interface ResourceSpec {
  name: string;
  /** known up front for typed APIs; discovered otherwise */
  columns?: ColumnSpec[];
  primaryKey?: string[];
  /** field used as incremental cursor */
  cursorField?: string;
  /** 'append' adds rows; 'replace' swaps the table; 'merge' upserts on primaryKey */
  writeDisposition?: 'append' | 'replace' | 'merge';
  /**
   * merge of a change stream: when one sync yields several rows of a key, only the one with the
   * highest value of this column is stored (e.g. the change's log position)
   */
  latestBy?: string;
  /**
   * merge of a change stream: a BOOLEAN column; a row with it true removes its key from the table
   * instead of being stored, and the column itself is not stored
   */
  deleteFlag?: string;
  description?: string;
}

/**
 * What a read may yield, per resource:
 * - `records`: a batch of rows (the engine writes each batch to a newline-delimited JSON file and
 *   bulk-reads it with DuckDB's read_json, never row by row);
 * - `file`: a local file DuckDB reads itself (read_csv/read_json/read_parquet); its rows get
 *   the id of `sourceFile ?? path` (`_basin_file_id`; the name is in `raw_<source>._basin_files`). A CSV row whose field count differs from the header
 *   fails the sync (file, line, reason) unless `malformedRows` is 'quarantine': then such rows go to
 *   the `<table>__rejects` table beside the raw table and the rest loads;
 * - `forget_files`: rows that came from these source files are dropped in the same swap
 *   (deleted or modified files of an incremental file source);
 * - `state`: a cursor checkpoint, committed only together with the data yielded before it.
 */
export type ReadItem =
  | { kind: 'records'; resource: string; records: Record<string, unknown>[] }
  | { kind: 'file'; resource: string; path: string; format: 'csv' | 'json' | 'parquet'; options?: Record<string, unknown>; sourceFile?: string; malformedRows?: MalformedRows }
  | { kind: 'forget_files'; resource: string; sourceFiles: string[] }
  | { kind: 'state'; resource: string; state: Record<string, unknown> };

/** what a load does with CSV rows DuckDB's strict reader refuses: fail the sync, or set them aside and load the rest */
export type MalformedRows = 'fail' | 'quarantine';

export interface SourceLogger {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export interface SourceContext<C = Record<string, unknown>> {
  /** the source's name in sources.yml */
  name: string;
  /** the typed block (or generic_config), validated and with defaults */
  config: C;
  /** the project directory (file paths in config are relative to it) */
  projectDir: string;
  /** resolves `*_env` names and secrets; throws a clear error naming a missing variable */
  secret(name: string): string;
  /** credentials from .ingest/secrets.toml [sources.<name>.credentials], never logged */
  credentials: Record<string, unknown>;
  /** options of this run */
  options: { fullRefresh: boolean; startDate?: string; endDate?: string; lookbackDays?: number };
  signal: AbortSignal;
  log: SourceLogger;
  /** fetch to use (tests may inject one); defaults to global fetch */
  fetch: typeof fetch;
  /** waits between HTTP retries (tests record the delays instead of waiting); defaults to a timer */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * the current access token of this source type's provider OAuth connection (oauth2 sources),
   * refreshed by the platform before it expires; fails with `oauth_not_connected` when there is none
   */
  oauthToken(): Promise<OAuthToken>;
}

export interface ConfigProblem {
  path: string;
  message: string;
}

export interface CheckResult {
  ok: boolean;
  message?: string;
}

/**
 * A source that reads the files of one local directory declares where that directory is, so Basin can
 * watch it, take uploads into it and list its files (the watcher, upload-csv and csv-files routes).
 */
export interface FileDirectoryCapability<C = Record<string, unknown>> {
  /** the setting of the source's block that names the directory (`directory`, `bucket_url`) */
  key: string;
  /** the absolute local directory for this config; null when the config names no local directory */
  directory(config: C, projectDir: string): string | null;
  /** the glob of the files it loads, relative to the directory */
  pattern(config: C): string;
  /** true when the directory must lie inside the project (config validation refuses others) */
  insideProject: boolean;
}

export interface SourceDefinition<S extends TSchema = TSchema> {
  type: string;
  title?: string;
  category: SourceCategory;
  authKind: AuthKind;
  /** shown in the interactive wizard */
  wizard: boolean;
  /** `typed` = a block named like the type; `generic` = generic_config */
  configKey?: 'typed' | 'generic';
  configSchema: S;
  capabilities: SourceCapabilities;
  /** set by sources that load the files of a local directory (see FileDirectoryCapability) */
  fileDirectory?: FileDirectoryCapability<Static<S>>;
  /** resources this source can produce (may be refined by discover) */
  resources?: ResourceSpec[];
  /** resources read when the config names none */
  defaultResources?: string[];
  /**
   * The config picks the resources under keys of its own (`endpoints`, `queries`, `range_names`...):
   * the engine asks `discover` what to read instead of using `resources`/`defaultResources`.
   */
  discoverSelects?: boolean;
  /** for `authKind: 'oauth2'`: where the provider's authorization and token endpoints are */
  oauth?: OAuthProviderManifest;
  /** runtime not implemented yet: a sync fails with not_implemented naming the type */
  implemented?: boolean;
  docs?: string;
  /**
   * Cross-field rules the schema cannot express (e.g. "auth_type basic needs basic_username_env").
   * Called with the block after schema validation and defaults; `path` is a JSON pointer inside
   * the block ('/auth_token_env'). Sources also enforce these in check/read.
   */
  validateConfig?(config: Static<S>): ConfigProblem[];
  /**
   * Undoes what the source set up outside Basin (a replication slot, a publication) when the source
   * is removed (DELETE /api/sources/{name}); returns what it did, in words. A throw refuses the removal.
   */
  teardown?(ctx: SourceContext<Static<S>>): Promise<string>;
  check(ctx: SourceContext<Static<S>>): Promise<CheckResult>;
  discover(ctx: SourceContext<Static<S>>): Promise<ResourceSpec[]>;
  /** yields batches per resource; `state` is the last committed cursor state per resource */
  read(ctx: SourceContext<Static<S>>, resources: ResourceSpec[], state: Record<string, Record<string, unknown>>): AsyncIterable<ReadItem>;
  /**
   * Called once a sync's data and state are committed, with the source's whole committed state: for
   * telling the origin what Basin now holds (a Kafka consumer group's offsets). Basin's state stays
   * the truth the next read starts from, so this must be idempotent; a crash can skip it, and the next
   * successful sync calls it again. A failure is logged as a warning, the sync still succeeds.
   */
  afterCommit?(ctx: SourceContext<Static<S>>, state: Record<string, Record<string, unknown>>): Promise<void>;
}

export class SourceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export function notImplemented(type: string): SourceError {
  return new SourceError('not_implemented', `The "${type}" source is declared but its runtime is not implemented yet; configure it through ingest_native or wait for a later release.`, { type });
}

export function defineSource<S extends TSchema>(def: SourceDefinition<S>): SourceDefinition<S> {
  if (!/^[a-z][a-z0-9_]*$/.test(def.type)) throw new Error(`source type "${def.type}" must be lowercase letters, digits and underscores`);
  return { configKey: 'typed', implemented: true, ...def };
}
