import { createExtensionPoint, createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { PostLoadHook, SyncEngine, SyncTable } from './types.js';

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

export const syncEngineRef = createServiceRef<SyncEngine>({ id: 'syncEngine' });
export const syncHistoryRef = createServiceRef<SyncHistory>({ id: 'syncStore' });
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
