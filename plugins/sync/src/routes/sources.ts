import { errors, type PluginContext } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { sourceStatusPoint, type SourceRegistry } from '@basin/plugin-sources/contract';
import type { SyncEngineImpl } from '../engine.js';
import { configuredSources, findSource } from '../source-config.js';
import { details, listItem, type SchemaChangeGroup } from '../source-status.js';
import type { SyncStore } from '../store.js';

export const SourceParams = Type.Object({ source_name: Type.String({ pattern: '^[a-z0-9_]+$', maxLength: 200 }) });

interface Extras {
  schedule(name: string): unknown;
  attention(): Promise<Set<string>>;
  schemaChanges(source: string): SchemaChangeGroup[];
}

/** Schedule info, attention flags and schema history come from other plugins (scheduler, governance) when they are installed. */
export function extras(ctx: PluginContext): Extras {
  const contributions = () => ctx.extensionPoint(sourceStatusPoint)?.contributions() ?? [];
  return {
    schedule(name) {
      for (const c of contributions()) {
        try {
          const s = c.schedule?.(name);
          if (s) return s;
        } catch {
          /* a failing contributor leaves the field empty */
        }
      }
      return null;
    },
    schemaChanges(source) {
      return contributions().flatMap((c) => c.schemaChanges?.(source, 20) ?? []);
    },
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
