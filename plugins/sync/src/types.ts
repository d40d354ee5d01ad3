import type { ColumnSpec } from '@basin/sdk';

/** Types of the contract other plugins use (re-exported by contract.ts; docs/architecture.md). */
export type SyncTrigger = 'api' | 'schedule' | 'watcher' | 'cli' | 'upload' | 'initial';

export interface SyncProgress {
  resource: string;
  /** rows loaded into staging so far for this resource */
  rows: number;
  /** rows loaded so far over every resource */
  totalRows: number;
}

export interface SyncOptions {
  /** the sync's id (a worker runs a job under the id the server gave it); default a new one */
  id?: string;
  fullRefresh?: boolean;
  startDate?: string;
  endDate?: string;
  trigger?: SyncTrigger;
  schedule?: string | null;
  signal?: AbortSignal;
  /** called after each batch reaches staging (CLI progress bar) */
  onProgress?: (p: SyncProgress) => void;
  /** called as each phase of the sync ends, with its wall time (the CLI's phase line) */
  onPhase?: (phase: SyncPhase, ms: number) => void;
}

/** the phases of a sync, in order: read+load into staging, swap into the raw table, post-load checks; publish runs after, in the background */
export type SyncPhase = 'load' | 'swap' | 'checks' | 'publish';

export type SyncStatus = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'empty';

export interface SyncTable {
  name: string;
  schema: string;
  rows: number;
  /** CSV rows this sync quarantined (malformed_rows: quarantine) and the table holding them */
  rejected_rows?: number;
  rejects_table?: string;
  /** columns this sync widened, with how many values did not fit the old type and an example */
  widened_columns?: Array<{ column: string; from: string; to: string; values: number; example: string | null }>;
}

export interface SyncRecord {
  id: string;
  source: string;
  status: SyncStatus;
  started_at: string;
  finished_at: string | null;
  rows: number;
  tables: SyncTable[];
  error: string | null;
  trigger: string;
  schedule: string | null;
}

export type PostLoadHook = (c: { source: string; syncId: string; tables: SyncTable[]; fullRefresh: boolean }) => Promise<void>;

export interface SyncEngine {
  start(source: string, opts?: SyncOptions): SyncRecord;
  run(source: string, opts?: SyncOptions): Promise<SyncRecord>;
  wait(id: string): Promise<SyncRecord>;
  get(id: string): SyncRecord | undefined;
  cancel(id: string): boolean;
  isRunning(source: string): boolean;
}

/** one column change as the sources API shows it (`schema_changes` of a source's details; recorded by governance) */
export type { SourceSchemaChange as SchemaChange } from '@basin/plugin-sources/contract';

export type ObservedColumns = ColumnSpec[];
