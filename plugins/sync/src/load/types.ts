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
  forget: Set<string>;
}

export interface LoadedTable {
  name: string;
  schema: string;
  rows: number;
  /** rows this sync added */
  loaded: number;
  columns: ColumnSpec[];
}

export interface LoadHooks {
  warn(msg: string): void;
  info(msg: string): void;
  progress(resource: string, rows: number, totalRows: number): void;
}
