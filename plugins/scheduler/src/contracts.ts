/**
 * The parts of other plugins' services the scheduler uses (the cross-plugin contract). They are
 * resolved lazily at run time, so the scheduler works (and says why a job failed) without them.
 */
export interface SyncOptions {
  fullRefresh?: boolean;
  trigger?: 'api' | 'schedule' | 'watcher' | 'cli' | 'upload' | 'initial';
  schedule?: string | null;
  signal?: AbortSignal;
}
export interface SyncRecord {
  id: string;
  source: string;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled' | 'empty';
  started_at: string;
  finished_at: string | null;
  rows: number;
  error: string | null;
}
export interface SyncEngine {
  start(source: string, opts?: SyncOptions): SyncRecord;
  wait(id: string): Promise<SyncRecord>;
  cancel(id: string): boolean;
  isRunning(source: string): boolean;
}
export interface TxRunRecord {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  command: string;
  error: string | null;
  models: { name: string; status: string; rows_affected: number | null; error: string | null }[];
}
export interface TxRunner {
  run(opts: { command?: 'run' | 'build' | 'test'; select?: string; args?: string[]; trigger?: string; schedule?: string | null; signal?: AbortSignal; excludeSources?: string[] }): Promise<TxRunRecord>;
  cancel(id: string): boolean;
}
export interface Governance {
  attentionSources(): Promise<Set<string>>;
}
