import { errors, type PluginContext } from '@basin/core';
import { Type } from '@sinclair/typebox';
import type { SourceRegistry } from '@basin/plugin-sources';
import type { SyncEngineImpl } from '../engine.js';
import { configuredSources, findSource } from '../source-config.js';
import { details, listItem, type SchemaChangeGroup } from '../source-status.js';
import type { SyncStore } from '../store.js';
import type { SchemaChange } from '../types.js';

export const SourceParams = Type.Object({ source_name: Type.String({ pattern: '^[a-z0-9_]+$', maxLength: 200 }) });

/** the part of the scheduler service this plugin reads (optional plugin) */
interface SchedulerLike {
  current(): { schedules: Array<{ name: string; type: string; cron: string; enabled?: boolean; sources?: string[] }> };
  nextRun?(name: string): Date | null;
}

/** the part of the governance service read here: its schema history, in its own vocabulary */
interface GovernanceSchemaHistory {
  schemaHistory(source: string, limit: number): Array<{ table: string; sync_id: string | null; detected_at: string; changes: Array<{ change_type: string; column: string; old_type: string | null; new_type: string | null }> }>;
}

interface Extras {
  schedule(name: string): unknown;
  attention(): Promise<Set<string>>;
  schemaChanges(source: string): SchemaChangeGroup[];
}

/** Schedule info and attention flags come from other plugins when they are installed. */
export function extras(ctx: PluginContext): Extras {
  return {
    schedule(name) {
      const s = ctx.tryResolve<SchedulerLike>('scheduler');
      if (!s?.current) return null;
      try {
        const list = (s.current().schedules ?? []).filter((x) => x.enabled !== false && (x.type === 'sync' || x.type === 'sync_only') && (x.sources ?? []).includes(name));
        if (!list.length) return null;
        return {
          schedules: list.map((x) => ({ name: x.name, cron: x.cron, next_run: s.nextRun?.(x.name)?.toISOString() ?? null })),
          next_run: list.map((x) => s.nextRun?.(x.name)?.toISOString() ?? null).filter(Boolean).sort()[0] ?? null,
        };
      } catch {
        return null;
      }
    },
    schemaChanges(source) {
      const g = ctx.tryResolve<GovernanceSchemaHistory>('governance');
      if (typeof g?.schemaHistory !== 'function') return [];
      return g.schemaHistory(source, 20).map((h) => ({ table: h.table, sync_id: h.sync_id, changes: h.changes.map(toSchemaChange), at: h.detected_at }));
    },
    async attention() {
      const g = ctx.tryResolve<{ attentionSources(): Promise<Set<string>> }>('governance');
      try {
        return g ? await g.attentionSources() : new Set();
      } catch {
        return new Set();
      }
    },
  };
}

export function registerSourceRoutes(ctx: PluginContext, d: { registry: SourceRegistry; store: SyncStore; engine: SyncEngineImpl }): void {
  const deps = { config: ctx.config, registry: d.registry, store: d.store, engine: d.engine, clock: ctx.clock };
  const ex = extras(ctx);

  ctx.routes.get('/api/sources', { permission: 'public', schema: { summary: 'Configured sources with status, freshness and tables' } }, async () => {
    const attention = await ex.attention();
    return configuredSources(ctx.config).map((s) => listItem(deps, s, { schedule: ex.schedule(s.name), attention: attention.has(s.name) }));
  });

  ctx.routes.get('/api/sources/types', { permission: 'source.view', schema: { summary: 'Installed source types: category, auth, wizard, capabilities, config schema' } }, async () =>
    d.registry.all().map((def) => ({
      type: def.type,
      title: def.title ?? def.type,
      category: def.category,
      auth_kind: def.authKind,
      wizard: def.wizard,
      config_key: def.configKey === 'generic' ? 'generic_config' : def.type,
      capabilities: def.capabilities,
      config_schema: JSON.parse(JSON.stringify(def.configSchema)),
      resources: (def.resources ?? []).map((r) => r.name),
      default_resources: def.defaultResources ?? null,
      implemented: def.implemented !== false,
      package: def.package,
      docs: def.docs ?? null,
    })),
  );

  ctx.routes.get('/api/sources/:source_name/details', { permission: 'public', schema: { params: SourceParams, summary: 'One source: masked config, sync history, freshness, tables, sync mode' } }, async (req) => {
    const s = findSource(ctx.config, req.params.source_name);
    if (!s) throw errors.notFound(`Source "${req.params.source_name}"`);
    const attention = await ex.attention();
    return details(deps, s, { schedule: ex.schedule(s.name), attention: attention.has(s.name), schemaChanges: ex.schemaChanges(s.name) });
  });
}

/** governance's change names → the sources API's (`column_added` → `added`, old/new type → from/to) */
function toSchemaChange(c: { change_type: string; column: string; old_type: string | null; new_type: string | null }): SchemaChange {
  const change = c.change_type === 'column_added' ? 'added' : c.change_type === 'column_removed' ? 'removed' : 'type_changed';
  return { column: c.column, change, ...(c.old_type !== null ? { from: c.old_type } : {}), ...(c.new_type !== null ? { to: c.new_type } : {}) };
}
