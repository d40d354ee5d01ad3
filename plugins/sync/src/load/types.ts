import type { ColumnSpec, ReadItem, ResourceSpec } from '@basin/sdk';

export type FileItem = Extract<ReadItem, { kind: 'file' }>;

/** staging tables are named `_basin_staging__<resource>__<sync>` inside the raw schema */
export const STAGING_PREFIX = '_basin_staging__';
/** Basin's own bookkeeping inside the warehouse (commit markers) */
export const META_SCHEMA = '_basin_meta';

/** one resource's load in progress: its staging table, what is buffered, what it loaded */
export interface ResourceLoad {
  name: string;
  spec: ResourceSpec | undefined;
  staging: string;
  created: boolean;
  columns: Map<string, string>;
  rows: number;
  files: FileItem[];
  records: Record<string, unknown>[];
  /** rows of the batch being filled (from the width of its first record) */
  batchRows?: number;
  /** when the batch being filled got its first record */
  batchStartedMs?: number;
  forget: Set<string>;
  /** source-file names this sync loaded (their earlier rejects are replaced) */
  loadedFiles: Set<string>;
  /** rows set aside by quarantine (`malformedRows: 'quarantine'`) into the staging rejects table */
  rejected: number;
  rejectsCreated: boolean;
  /** columns staging widened between batches: the first type seen */
  widenedFrom: Map<string, string>;
}

/** the staging rejects table of a resource (dropped with staging; swapped into `<table>__rejects`) */
export const rejectsStaging = (r: ResourceLoad): string => `${r.staging}__rejects`;
/** the table beside `<table>` holding its quarantined rows: file, line, raw text, reason */
export const rejectsTable = (table: string): string => `${table}__rejects`;

/** a column whose type a load widened, with how many of this sync's values did not fit the old type */
export interface WidenedColumn {
  column: string;
  from: string;
  to: string;
  values: number;
  example: string | null;
}

export interface LoadedTable {
  name: string;
  schema: string;
  rows: number;
  /** rows this sync added */
  loaded: number;
  columns: ColumnSpec[];
  /** rows quarantined by this sync, and where they are */
  rejected: number;
  rejectsTable: string | null;
  widened: WidenedColumn[];
  /**
   * what the commit did to the table, so a server warehouse can repeat just that
   * (load/server-warehouse.ts); absent: treated as rebuilt (the whole table goes)
   */
  change?: TableChange;
}

/**
 * `rebuilt`: the table was replaced or retyped, or lost rows by key (change-stream deletes): a server
 * warehouse gets it whole. `appended` / `merged`: the rows of this sync (`_basin_sync_id`) were added
 * (merged: after deleting the rows with their keys), after deleting the rows of `forgotFiles`.
 */
export type TableChange = { kind: 'rebuilt' } | { kind: 'appended' | 'merged'; primaryKey: string[]; forgotFiles: string[] };

export interface LoadHooks {
  warn(msg: string): void;
  info(msg: string): void;
  progress(resource: string, rows: number, totalRows: number): void;
}
