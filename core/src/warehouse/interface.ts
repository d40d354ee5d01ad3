// The warehouse interface every backend implements (issue 22). Modelled on dlt's JobClientBase
// (capabilities, staged-file load jobs, an explicit commit) and Dagster's DbClient (connect, ensure
// schema, select): plugins say WHAT to load, swap, read or describe; the backend says HOW in its
// dialect. DuckDB (embedded, the default) implements it in ./duckdb-client.ts; server engines come
// as packages with `"basin": {"kind": "warehouse", "type": "<type>"}` (./registry.ts).

import type { ManagedVenv } from '../python-venv.js';

/** file formats a backend bulk-loads natively from a staged file */
export type BulkFormat = 'parquet' | 'csv';
/** how a load lands in its table: add rows, replace the table, or upsert on the primary key */
export type WriteDisposition = 'append' | 'replace' | 'merge';

export interface WarehouseCapabilities {
  /** the backend's `warehouse.type` in project.yml: duckdb, postgres, trino, ... */
  readonly type: string;
  /** the SQL dialect models and queries are written in */
  readonly dialect: string;
  /** staged-file formats `loadStaged` accepts, preferred first */
  readonly bulkFormats: readonly BulkFormat[];
  /** formats `unload` writes (migrations read from these) */
  readonly unloadFormats: readonly BulkFormat[];
  /** merge (upsert on a primary key) is done inside the engine */
  readonly merge: boolean;
  /** DDL is transactional: a swap of many tables commits or rolls back as one */
  readonly transactionalDdl: boolean;
  /**
   * The backend publishes a read-only DuckDB serving file (DECISIONS §3) that companions open
   * directly (Superset's duckdb-engine, marimo); server engines have no such file: companions connect
   * to the server with the read-only user instead.
   */
  readonly servingCopy: boolean;
  /** SQL of an approximate count of distinct values of `expr` (exact where the engine has none) */
  approxDistinct(expr: string): string;
  /** quotes an identifier in the dialect */
  quoteIdent(name: string): string;
  /** quotes a string literal in the dialect */
  quoteLiteral(value: string): string;
  /** a fully qualified table name in the dialect */
  qualify(schema: string, table: string): string;
  /**
   * A FROM item of about `rows` rows of `table` (a qualified name), repeatable where the engine can
   * (PII sampling). `bound` keeps the read bounded on a big table: the engine reads about
   * `maxRowsRead` rows spread over the table (given its `estimatedRows`) instead of all of it.
   */
  sample(table: string, rows: number, bound?: SampleBound): string;
}

/** how much of a table a sample may read (see WarehouseCapabilities.sample) */
export interface SampleBound {
  /** the table's row estimate (TableInfo.estimatedRows); unknown: the engine reads what it must */
  estimatedRows: number | null | undefined;
  /** about this many rows are read to draw the sample from */
  maxRowsRead: number;
}

/** a column as the engine reports it (`type` in the engine's own spelling) */
export interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
}

export interface TableInfo {
  schema: string;
  name: string;
  kind: 'table' | 'view';
  /** the engine's row estimate from its statistics (no scan); null for views or when unknown */
  estimatedRows?: number | null;
}

/** a file staged on local disk for a bulk load */
export interface StagedFile {
  path: string;
  format: BulkFormat;
  /** CSV: RFC 4180, a header line, comma-separated, empty unquoted field = NULL unless told otherwise */
  header?: boolean;
  delimiter?: string;
}

export interface StageRequest {
  schema: string;
  /** the staging table to create (dropped first if left over); swapped in later by `swap` */
  staging: string;
  file: StagedFile;
  /**
   * Column names and portable types (see ./portable-types.ts) of the file. Required by engines that
   * cannot infer a schema from a CSV (PostgreSQL); DuckDB infers when absent.
   */
  columns?: ColumnInfo[];
}

/** one resource's staging table to swap into its table */
export interface ResourceSwap {
  schema: string;
  table: string;
  staging: string;
  disposition: WriteDisposition;
  /** merge key (merge disposition); rows of the table with a key present in staging are replaced */
  primaryKey?: string[];
  /**
   * append and merge: rows of the table whose `column` holds one of `values` are deleted first, in
   * the same transaction (the rows of source files a sync forgot or reloaded: `_basin_file_id`);
   * numbers are compared as BIGINT, strings as text
   */
  forget?: { column: string; values: Array<string | number> };
}

/** `unload` writes only the rows whose `column` equals `equals` (one sync's rows: `_basin_sync_id`) */
export interface UnloadFilter {
  column: string;
  equals: string;
}

export interface SwapRequest {
  /** the source these resources belong to */
  source: string;
  /** the sync that staged them; recorded with the swap as its commit marker */
  syncId: string;
  resources: ResourceSwap[];
  /**
   * The source's cursor state after this sync, stored in the same transaction as the tables, so a
   * restart never sees new rows with the old cursor or the new cursor without its rows.
   */
  cursor?: unknown;
}

export interface SwappedTable {
  schema: string;
  table: string;
  rows: number;
  /** views on a replaced table that could not be made again on its new columns (dbt's next run rebuilds them) */
  viewsDropped?: string[];
}

export interface QueryOptions {
  /** the query is cancelled after this long */
  timeoutMs: number;
  /** at most this many rows come back; `truncated` says there were more */
  maxRows: number;
  /**
   * SQL Basin wrote itself from catalog names (PII samples, profiles), never user text: DuckDB may run
   * it on the live warehouse instead of the serving copy (it must see a load that just committed).
   * Server engines still use the read-only user.
   */
  internal?: boolean;
}

export interface QueryResult {
  columns: Array<{ name: string; type: string }>;
  /** JSON-safe values (big integers and decimals as strings, times as ISO strings) */
  rows: unknown[][];
  truncated: boolean;
}

/** how dbt reaches this warehouse: its profiles.yml output block and the venv with its adapter */
export interface DbtTarget {
  /** dbt's adapter type: duckdb, postgres, trino */
  adapter: string;
  /** the pinned pip requirements of the adapter's venv (dbt-core pinned like the transform venv) */
  requirements: readonly string[];
  /** the `outputs.<target>` block of profiles.yml (secrets as `{{ env_var('...') }}`, never inline) */
  profile: Record<string, unknown>;
  /**
   * environment variables dbt needs at run time (the values of the env vars the profile names), and
   * WAREHOUSE_SCHEMA_PREFIX_ENV with the backend's `schema_prefix` (generated sources files read it)
   */
  env: Record<string, string>;
  /** the backend's own venv with the adapter (absent for DuckDB: the transform plugin's venv) */
  venv?: ManagedVenv;
}

/**
 * How a companion (Superset, marimo) reaches a server warehouse as the read-only user, for
 * SQLAlchemy: Superset registers it as its database, a notebook makes an engine of it.
 */
export interface ReadOnlyConnection {
  /** SQLAlchemy URL without the password: postgresql+psycopg2://reader@host:5432/db, trino://reader@host:8443/lake */
  sqlalchemyUrl: string;
  /** SQLAlchemy `connect_args` (Trino: http_scheme and the CA file to verify with; PostgreSQL: sslmode) */
  connectArgs: Record<string, unknown>;
  /** the environment variable holding the read-only password (the companion gets its value, never the URL) */
  passwordEnv: string;
  /** its value, when set (given to the companion's process environment, never written to a file) */
  password?: string;
  /** pinned pip requirements of the SQLAlchemy driver the companion's venv needs */
  drivers: readonly string[];
  /** the schema a Basin schema name has on the engine (schema_prefix applied) */
  schemaName(schema: string): string;
}

export interface WarehouseHealth {
  type: string;
  ok: boolean;
  /** what the engine says it is (version string) when reachable */
  version?: string;
  /** round trip of a trivial query */
  latencyMs?: number;
  /** why not ok, and what to do */
  message?: string;
  /** where it is: a file path or host:port/database (never credentials) */
  location: string;
}

/**
 * A warehouse backend for one project. Writes from Basin go through `ensureSchema`, `loadStaged`,
 * `swap` and `execute`; reads through `query` (the read-only user), `listTables`, `describeTable`.
 */
export interface WarehouseClient {
  readonly capabilities: WarehouseCapabilities;
  open(): Promise<void>;
  close(): Promise<void>;
  ensureSchema(schema: string): Promise<void>;
  /** bulk-loads a staged file into a new staging table (its rows counted); nothing a reader sees changes */
  loadStaged(req: StageRequest): Promise<{ rows: number }>;
  /**
   * Swaps every resource's staging table into its table, records the commit marker and the cursor
   * state, all in ONE transaction: after a crash either all of it happened or none did.
   */
  swap(req: SwapRequest): Promise<SwappedTable[]>;
  /** the cursor state the last committed swap of `source` stored (null when none) */
  cursorState(source: string): Promise<unknown>;
  /** which of these sync ids committed (their marker row exists) */
  committedSyncs(syncIds: string[]): Promise<Set<string>>;
  /** drops staging tables a killed load left behind; returns how many */
  dropStaleStaging(): Promise<number>;
  /** read-only: runs as the read-only user, cancelled at the timeout, capped at maxRows */
  query(sql: string, opts: QueryOptions): Promise<QueryResult>;
  /** a write statement as the writing user (DDL, migrations); no result */
  execute(sql: string): Promise<void>;
  listTables(schema?: string): Promise<TableInfo[]>;
  /** the table's columns, or null when it does not exist */
  describeTable(schema: string, table: string): Promise<ColumnInfo[] | null>;
  /**
   * writes a table (or, with `filter`, the rows matching it) to a local file in one of
   * `capabilities.unloadFormats` (migrations, exports, a sync's new rows for a server warehouse);
   * returns the rows written
   */
  unload(schema: string, table: string, file: StagedFile, filter?: UnloadFilter): Promise<{ rows: number }>;
  /** dbt's target for this warehouse */
  dbtTarget(): DbtTarget;
  /**
   * How Superset and marimo connect read-only: null for DuckDB, whose companions open the serving
   * copy (`capabilities.servingCopy`); a server engine gives its read-only user's SQLAlchemy URL.
   */
  readOnlyConnection(): ReadOnlyConnection | null;
  /**
   * Runs `fn` while an outside process (dbt) writes the warehouse: DuckDB waits for its queued writes,
   * closes the file and reopens it after; a server engine just runs `fn`.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** publishes what readers outside the engine see (DuckDB: the serving copy); a no-op for server engines */
  publish(): Promise<void>;
  health(): Promise<WarehouseHealth>;
}

/** Basin's bookkeeping schema inside every warehouse: commit markers and cursor state */
export const WAREHOUSE_META_SCHEMA = '_basin_meta';
/**
 * The variable a server backend's dbt target sets to its `schema_prefix`: generated dbt sources files
 * name `{{ env_var('BASIN_SCHEMA_PREFIX', '') }}raw_<source>`, the raw schema's name on the engine
 * (dbt's own models get the prefix from the profile's `schema`).
 */
export const WAREHOUSE_SCHEMA_PREFIX_ENV = 'BASIN_SCHEMA_PREFIX';
/** staging tables are named `_basin_staging__<resource>__<sync>` */
export const WAREHOUSE_STAGING_PREFIX = '_basin_staging__';
/**
 * In each raw schema, the names of the source files the rows came from: rows carry `_basin_file_id`,
 * this table maps it to the file (written by the sync with the rows, in the same transaction)
 */
export const WAREHOUSE_FILES_TABLE = '_basin_files';
/** Basin's own tables inside a raw schema (staging, the files table): bookkeeping, not a source's data */
export const isBasinTable = (name: string): boolean => name.startsWith('_basin_');
