import { createExtensionPoint, createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { ObservedColumns, PostLoadHook, SyncEngine, SyncTable } from './types.js';

/** The public face of the sync plugin: what other plugins may import (`@basin/plugin-sync/contract`). */
export type { PostLoadHook, SyncEngine, SyncOptions, SyncProgress, SyncRecord, SyncStatus, SyncTable, SyncTrigger } from './types.js';

/** the part of the sync history other plugins read: sources whose latest decisive sync failed */
export interface SyncHistory {
  failures(): Array<{ id: string; source: string; error: string | null; finished_at: string | null; started_at: string }>;
}

/** checks that run after each load, before sync_completed (governance's drift and PII checks) */
export interface SyncLoadHooks {
  addPostLoadHook(fn: PostLoadHook): void;
}

/** one sync as a job for another process (a `basin worker`): what the server sends */
export interface SyncJob {
  sync_id: string;
  source: string;
  full_refresh: boolean;
  start_date?: string;
  end_date?: string;
  trigger: string;
  schedule: string | null;
  /** the source's cursor state on the server when the job was sent */
  state: Record<string, Record<string, unknown>>;
  /** the server's last successful sync of this source: a worker whose local copy is of another sync rebuilds in full */
  last_sync_id: string | null;
}

/** what the worker sends back: the outcome, its own run window, the cursor state to promote */
export interface SyncJobResult {
  status: 'succeeded' | 'empty' | 'failed' | 'cancelled';
  rows: number;
  tables: SyncTable[];
  error: string | null;
  started_at: string;
  finished_at: string;
  state: Record<string, Record<string, unknown>>;
  /** the source's tables with their columns as the worker saw them after the sync */
  observed: Array<{ name: string; schema: string; rows: number; columns: ObservedColumns }>;
  /** which worker ran it (host:pid) */
  worker: string;
  /** true when the worker rebuilt the source in full (its local copy was not of the server's last sync) */
  rebuilt: boolean;
}

/** what the executor relays while a worker runs a job: the server turns it into its own events */
export interface SyncJobReports {
  /** a worker took the job (its name) */
  taken?(worker: string): void;
  /** the worker's newest progress: the fields of `sync_progress` but the source and sync id */
  progress?(p: Omit<SyncProgressEvent, 'source' | 'sync_id'>): void;
}

/**
 * runs sync jobs somewhere else (the workers plugin's queue). An aborted signal asks the worker to
 * cancel: the outcome then says whether it stopped before its swap (cancelled) or not.
 */
export interface SyncExecutor {
  execute(job: SyncJob, signal: AbortSignal, reports?: SyncJobReports): Promise<SyncJobResult>;
  /** jobs a previous server process sent and stopped waiting for (it stopped before their outcome) */
  unfinished(): Promise<SyncJob[]>;
  /** waits again for the outcome of one of those */
  resume(job: SyncJob, signal: AbortSignal, reports?: SyncJobReports): Promise<SyncJobResult>;
}

/** the sync engine's seams for workers: the server hands syncs to an executor, a worker runs jobs */
export interface SyncRemote {
  /** from now on start() sends every sync to this executor instead of running it in this process */
  useExecutor(executor: SyncExecutor): void;
  /**
   * After a restart: takes back the syncs a previous server process sent to the executor and did not
   * see end (their history turns back to running until their outcome); answers how many.
   */
  adoptRemote(): Promise<number>;
  /** runs one job in this process (in a worker) and returns its outcome; signal cancels it */
  runJob(job: SyncJob, worker: string, signal?: AbortSignal): Promise<SyncJobResult>;
}

export const syncEngineRef = createServiceRef<SyncEngine>({ id: 'syncEngine' });
export const syncHistoryRef = createServiceRef<SyncHistory>({ id: 'syncStore' });
export const syncRemoteRef = createServiceRef<SyncRemote>({ id: 'syncRemote' });
export const syncLoadHooksPoint = createExtensionPoint<SyncLoadHooks>({ id: 'sync.load-hooks' });

export interface SyncStarted {
  source: string;
  sync_id: string;
  trigger: string;
  schedule?: string | null;
}
export interface SyncCompleted extends SyncStarted {
  rows: number;
  tables: SyncTable[];
  duration_seconds: number;
  /** CSV rows set aside into `<table>__rejects` (only with malformed_rows: quarantine) */
  rejected_rows?: number;
}
/** a running sync's rows so far (all resources) and of the resource that just loaded a batch */
export interface SyncProgressEvent {
  source: string;
  sync_id: string;
  resource: string;
  resource_rows: number;
  rows: number;
  rows_per_second: number;
}
export interface SyncFailed extends SyncStarted {
  error: string;
}

declare module '@basin/core' {
  interface BasinEvents {
    sync_started: SyncStarted;
    sync_completed: SyncCompleted;
    sync_failed: SyncFailed;
    sync_progress: SyncProgressEvent;
    csv_uploaded: { source: string; file: string };
    freshness_update: { source: string };
  }
}

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const syncPermissions = {
  sync: { name: 'source.sync', roles: grantedFrom.editor },
  csv_upload: { name: 'csv.upload', roles: grantedFrom.editor },
  csv_delete: { name: 'csv.delete', roles: grantedFrom.editor },
} satisfies Record<string, PermissionSpec>;

/** This plugin's settings of the `platform` section; their schema and SPEC defaults are in its package.json (`basin.platform`). */
declare module '@basin/core' {
  interface PlatformSettings {
    auto_sync: boolean;
    debounce_seconds: number;
    workers: number | null;
    watch_patterns: string[];
    watch_directories: string[];
  }
}
