import type { BasinConfig, Clock } from '@basin/core';
import type { SourceEntry, SourceRegistry, SourceSchemaChangeGroup as SchemaChangeGroup } from '@basin/plugin-sources/contract';
import type { SyncEngineImpl } from './engine.js';
import { maskConfig, rawSchema, sourceBlock } from './source-config.js';
import type { SyncStore } from './store.js';

export type SourceStatus = 'synced' | 'syncing' | 'failed' | 'empty' | 'not_synced' | 'unknown';

export interface SourceView {
  deps: { config: BasinConfig; registry: SourceRegistry; store: SyncStore; engine: SyncEngineImpl; clock: Clock };
}

const DAY = 86_400_000;

/** SPEC "Source sync status": running wins; then the latest decisive sync; data without history is unknown. */
export function sourceStatus(v: SourceView['deps'], name: string): SourceStatus {
  if (v.engine.isRunning(name)) return 'syncing';
  const last = v.store.lastDecisive(name);
  if (!last) return v.store.tables(name).length ? 'unknown' : 'not_synced';
  if (last.status === 'failed') return 'failed';
  if (last.status === 'empty') return 'empty';
  return 'synced';
}

export function freshness(v: SourceView['deps'], name: string): { last_update: string | null; days_old: number | null } {
  const ok = v.store.lastSuccess(name);
  if (!ok?.finished_at) return { last_update: null, days_old: null };
  const days = Math.max(0, Math.floor((v.clock.now().getTime() - new Date(ok.finished_at).getTime()) / DAY));
  return { last_update: ok.finished_at, days_old: days };
}

export function listItem(v: SourceView['deps'], s: SourceEntry, extra: { schedule?: unknown; attention?: boolean }) {
  const tables = v.store.tables(s.name);
  const last = v.store.history(s.name, 1).items[0];
  return {
    name: s.name,
    type: s.type,
    enabled: s.enabled !== false,
    description: s.description ?? null,
    tags: s.tags ?? [],
    last_sync: last?.finished_at ?? last?.started_at ?? null,
    row_count: tables.reduce((n, t) => n + t.rows, 0),
    status: sourceStatus(v, s.name),
    freshness: freshness(v, s.name),
    tables: tables.map((t) => ({ name: t.name, row_count: t.rows, schema: t.schema })),
    schedule: extra.schedule ?? null,
    needs_attention: extra.attention ?? false,
  };
}

/** one sync's schema changes of one table, oldest group first (from governance) */
export type { SchemaChangeGroup };

export function details(v: SourceView['deps'], s: SourceEntry, extra: { schedule?: unknown; attention?: boolean; schemaChanges?: SchemaChangeGroup[] }) {
  const def = v.registry.get(s.type);
  const { items: history, total } = v.store.history(s.name, 20);
  const block = sourceBlock(s, v.registry);
  const config: Record<string, unknown> = { ...s };
  return {
    ...listItem(v, s, extra),
    config: maskConfig(config),
    raw_schema: rawSchema(s.name),
    sync_mode: {
      incremental: !!def?.capabilities.incremental,
      mode: def?.capabilities.incremental ? 'incremental' : 'full',
      lookback_days: s.lookback_days ?? null,
      date_range: !!def?.capabilities.dateRange,
      directory: typeof block.directory === 'string' ? block.directory : null,
    },
    tables_detail: v.store.tables(s.name).map((t) => ({ name: t.name, schema: t.schema, row_count: t.rows, columns: t.columns, updated_at: t.updated_at })),
    schema_changes: extra.schemaChanges ?? [],
    sync_history: { items: history, total },
    implemented: def?.implemented !== false,
  };
}
