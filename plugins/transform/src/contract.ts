import { createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { TxRunner } from './types.js';

/** The public face of the transform plugin: what other plugins may import (`@basin/plugin-transform/contract`). */
export type { TxCommand, TxModelResult, TxRunOptions, TxRunRecord, TxRunStatus, TxRunner } from './types.js';

/** runs dbt (one run at a time; the scheduler and the API queue through it) */
export const txRunnerRef = createServiceRef<TxRunner>({ id: 'txRunner' });
/** the timer the auto-run coalescer waits with; tests provide a manual one under this id */
export const txTimerRef = createServiceRef<(fn: () => void, ms: number) => () => void>({ id: 'txTimer' });

export interface TxRunStarted {
  model: string;
  run_id: string;
}
export interface TxRunCompleted extends TxRunStarted {
  status: string;
  error?: string;
  file?: string;
  line?: number;
}

declare module '@basin/core' {
  interface BasinEvents {
    tx_run_started: TxRunStarted;
    tx_run_completed: TxRunCompleted;
  }
}

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const txPermissions = {
  view: { name: 'tx.view', roles: grantedFrom.viewer },
  run: { name: 'tx.run', roles: grantedFrom.editor },
  manage: { name: 'tx.manage', roles: grantedFrom.editor },
} satisfies Record<string, PermissionSpec>;

/** This plugin's settings of the `platform` section; their schema and SPEC defaults are in its package.json (`basin.platform`). */
declare module '@basin/core' {
  interface PlatformSettings {
    tx_project_dir: string;
    tx_docs_port: number;
    auto_tx: boolean;
    tx_coalesce_seconds: number;
  }
}
