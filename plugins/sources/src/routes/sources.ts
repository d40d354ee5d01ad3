import type { PluginContext } from '@basin/core';
import { errors } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { sourceStatusPoint } from '../contract.js';
import type { SourceRegistry } from '../registry.js';
import type { SourcesConfig } from '../source-config.js';
import { details, listItem, sourceExtras } from '../source-status.js';

export const SourceParams = Type.Object({ source_name: Type.String({ pattern: '^[a-z0-9_]+$', maxLength: 200 }) });

/** The sources API's read side: the configured sources, installed types and one source's details. */
export function registerSourceRoutes(ctx: PluginContext, d: { registry: SourceRegistry; sources: SourcesConfig }): void {
  // sync state, schedules, attention and schema history come from other plugins when they are installed
  const ex = sourceExtras(() => ctx.extensionPoint(sourceStatusPoint)?.contributions() ?? []);

  ctx.routes.get('/api/sources', { permission: 'public', schema: { summary: 'Configured sources with status, freshness and tables' } }, async () => {
    const attention = await ex.attention();
    return d.sources.all().map((s) => listItem(ex, s, { attention: attention.has(s.name) }));
  });

  ctx.routes.get('/api/sources/types', { permission: 'source.view', schema: { summary: 'Installed source types: category, auth, wizard, capabilities, config schema' } }, async () => {
    // the packages not loaded yet, by import (all() would require() them one by one on the event loop)
    await d.registry.load(d.registry.types());
    return d.registry.all().map((def) => ({
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
    }));
  });

  ctx.routes.get('/api/sources/:source_name/details', { permission: 'public', schema: { params: SourceParams, summary: 'One source: masked config, sync history, freshness, tables, sync mode' } }, async (req) => {
    const s = d.sources.find(req.params.source_name);
    if (!s) throw errors.notFound(`Source "${req.params.source_name}"`);
    const attention = await ex.attention();
    return details(ex, d.registry, s, { attention: attention.has(s.name) });
  });
}
