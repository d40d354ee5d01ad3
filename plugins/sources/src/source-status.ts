import type { SourceEntry, SourceSchemaChangeGroup as SchemaChangeGroup, SourceStatusContribution, SourceSyncState } from './contract.js';
import type { SourceRegistry } from './registry.js';
import { maskConfig, rawSchema, sourceBlock } from './source-config.js';

export type { SchemaChangeGroup };

/** what the list and details views need from other plugins: the sync state and history (sync), schedule, attention, schema history */
export interface SourceExtras {
  sync(name: string): SourceSyncState;
  syncHistory(name: string, limit: number): { items: unknown[]; total: number };
  schedule(name: string): unknown;
  attention(): Promise<Set<string>>;
  schemaChanges(source: string): SchemaChangeGroup[];
}

/** a source no plugin has synced (or the sync plugin is not installed) */
const neverSynced = (name: string): SourceSyncState => ({ status: 'not_synced', last_sync: null, freshness: { last_update: null, days_old: null }, raw_schema: rawSchema(name), tables: [] });

/** Combines the contributions of other plugins; a failing contributor leaves its field empty. */
export function sourceExtras(contributions: () => readonly SourceStatusContribution[]): SourceExtras {
  const first = <T>(pick: (c: SourceStatusContribution) => T | undefined | null): T | undefined => {
    for (const c of contributions()) {
      try {
        const v = pick(c);
        if (v !== undefined && v !== null) return v;
      } catch {
        /* next contributor */
      }
    }
    return undefined;
  };
  return {
    sync: (name) => first((c) => c.sync?.(name)) ?? neverSynced(name),
    syncHistory: (name, limit) => first((c) => c.syncHistory?.(name, limit)) ?? { items: [], total: 0 },
    schedule: (name) => first((c) => c.schedule?.(name)) ?? null,
    schemaChanges: (source) => contributions().flatMap((c) => c.schemaChanges?.(source, 20) ?? []),
    async attention() {
      const out = new Set<string>();
      for (const c of contributions()) {
        try {
          for (const s of (await c.attention?.()) ?? []) out.add(s);
        } catch {
          /* as above */
        }
      }
      return out;
    },
  };
}

export function listItem(ex: SourceExtras, s: SourceEntry, extra: { attention?: boolean }) {
  const state = ex.sync(s.name);
  return {
    name: s.name,
    type: s.type,
    enabled: s.enabled !== false,
    description: s.description ?? null,
    tags: s.tags ?? [],
    last_sync: state.last_sync,
    row_count: state.tables.reduce((n, t) => n + t.row_count, 0),
    status: state.status,
    freshness: state.freshness,
    tables: state.tables.map((t) => ({ name: t.name, row_count: t.row_count, schema: t.schema })),
    schedule: ex.schedule(s.name),
    needs_attention: extra.attention ?? false,
  };
}

export function details(ex: SourceExtras, registry: SourceRegistry, s: SourceEntry, extra: { attention?: boolean }) {
  const def = registry.get(s.type);
  const state = ex.sync(s.name);
  const block = sourceBlock(s, registry);
  const config: Record<string, unknown> = { ...s };
  // the directory as configured (a project-relative path or a URL), never the resolved absolute one
  const dir = def?.fileDirectory ? (typeof block.directory === 'string' ? block.directory : typeof block.bucket_url === 'string' ? block.bucket_url : null) : null;
  return {
    ...listItem(ex, s, extra),
    config: maskConfig(config),
    raw_schema: state.raw_schema,
    sync_mode: {
      incremental: !!def?.capabilities.incremental,
      mode: def?.capabilities.incremental ? 'incremental' : 'full',
      lookback_days: s.lookback_days ?? null,
      date_range: !!def?.capabilities.dateRange,
      directory: dir,
    },
    tables_detail: state.tables.map((t) => ({ name: t.name, schema: t.schema, row_count: t.row_count, columns: t.columns, updated_at: t.updated_at })),
    schema_changes: ex.schemaChanges(s.name),
    sync_history: ex.syncHistory(s.name, 20),
    implemented: def?.implemented !== false,
  };
}
