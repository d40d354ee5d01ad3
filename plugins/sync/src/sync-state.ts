import type { Clock } from '@basin/core';
import { rawSchema, type SourceSyncState, type SourceSyncStatus } from '@basin/plugin-sources/contract';
import type { SyncEngineImpl } from './engine.js';
import type { SyncStore } from './store.js';

const DAY = 86_400_000;

export interface SyncStateDeps {
  store: SyncStore;
  engine: SyncEngineImpl;
  clock: Clock;
}

/** SPEC "Source sync status": running wins; then the latest decisive sync; data without history is unknown. */
export function sourceStatus(d: SyncStateDeps, name: string): SourceSyncStatus {
  if (d.engine.isRunning(name)) return 'syncing';
  const last = d.store.lastDecisive(name);
  if (!last) return d.store.tables(name).length ? 'unknown' : 'not_synced';
  if (last.status === 'failed') return 'failed';
  if (last.status === 'empty') return 'empty';
  return 'synced';
}

export function freshness(d: SyncStateDeps, name: string): { last_update: string | null; days_old: number | null } {
  const ok = d.store.lastSuccess(name);
  if (!ok?.finished_at) return { last_update: null, days_old: null };
  const days = Math.max(0, Math.floor((d.clock.now().getTime() - new Date(ok.finished_at).getTime()) / DAY));
  return { last_update: ok.finished_at, days_old: days };
}

/** what the sources API shows of a source's syncs (contributed through the sources.status extension point) */
export function syncState(d: SyncStateDeps, name: string): SourceSyncState {
  const last = d.store.history(name, 1).items[0];
  return {
    status: sourceStatus(d, name),
    last_sync: last?.finished_at ?? last?.started_at ?? null,
    freshness: freshness(d, name),
    raw_schema: rawSchema(name),
    tables: d.store.tables(name).map((t) => ({ name: t.name, schema: t.schema, row_count: t.rows, columns: t.columns, updated_at: t.updated_at })),
  };
}
