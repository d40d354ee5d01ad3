import { createServiceRef } from '@basin/core';
import type { InitialSync } from './initial-sync/runner.js';

/** The public face of the deploy plugin (`@basin/plugin-deploy/contract`). */
export type { InitialSync, InitialSyncStatus, SourceProgress, SourceState, RunState } from './initial-sync/runner.js';

export const initialSyncRef = createServiceRef<InitialSync>({ id: 'initialSync' });

/** /ws events of the initial sync (forwarded to clients with platform.manage) */
export interface InitialSyncStarted {
  sources: string[];
}
export interface InitialSyncProgress {
  source: string;
  state: string;
  rows: number;
  done: number;
  total: number;
  error: string | null;
}
export interface InitialSyncCompleted {
  state: string;
  sources: Array<{ name: string; state: string; rows: number }>;
}
export const INITIAL_SYNC_EVENTS = ['initial_sync_started', 'initial_sync_progress', 'initial_sync_completed'] as const;

declare module '@basin/core' {
  interface BasinEvents {
    initial_sync_started: InitialSyncStarted;
    initial_sync_progress: InitialSyncProgress;
    initial_sync_completed: InitialSyncCompleted;
  }
}
