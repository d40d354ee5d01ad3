/** The run record every caller sees (contract in docs/architecture.md, "txRunner"). */
export type TxRunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type TxCommand = 'run' | 'build' | 'test' | 'seed' | 'snapshot';

export interface TxModelResult {
  name: string;
  /** dbt's unique_id, e.g. model.my_project.stg_shop__orders */
  unique_id?: string;
  resource_type?: string;
  status: string;
  execution_time: number | null;
  rows_affected: number | null;
  error: string | null;
  /** for a failed model: its file (relative to the project) and the line of the error in it */
  file?: string;
  line?: number | null;
}

export interface TxRunRecord {
  id: string;
  status: TxRunStatus;
  command: string;
  selector: string | null;
  /** sources left out by `--exclude source:<name>+` (attention flags) */
  excluded_sources: string[];
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  trigger: string;
  schedule: string | null;
  models: TxModelResult[];
  error: string | null;
  /** staging generation notes attached by an auto-run (raw tables that disappeared, skipped edits) */
  notes: string[];
  docs_generated: boolean;
}

export interface TxRunOptions {
  command?: TxCommand;
  select?: string;
  cascade?: boolean;
  args?: string[];
  trigger?: string;
  schedule?: string | null;
  signal?: AbortSignal;
  excludeSources?: string[];
  notes?: string[];
}

export interface TxRunner {
  run(opts: TxRunOptions): Promise<TxRunRecord>;
  cancel(id: string): boolean;
}
