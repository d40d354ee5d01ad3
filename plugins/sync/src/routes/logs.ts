import { errors, type PluginContext } from '@basin/core';
import { Type } from '@sinclair/typebox';
import type { SourcesConfig } from '@basin/plugin-sources/contract';
import type { SyncStore } from '../store.js';
import type { FileWatcher } from '../watcher.js';
import { SourceParams } from './params.js';

const page = (def: number) => Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 10000, default: def }), offset: Type.Integer({ minimum: 0, default: 0 }) });

export function registerLogRoutes(ctx: PluginContext, d: { sources: SourcesConfig; store: SyncStore; watcher: FileWatcher }): void {
  ctx.routes.get('/api/sources/:source_name/logs', { permission: 'public', schema: { params: SourceParams, querystring: page(100), summary: "A source's sync log lines, newest first" } }, async (req) => {
    if (!d.sources.find(req.params.source_name)) throw errors.notFound(`Source "${req.params.source_name}"`);
    return d.store.logs(req.params.source_name, req.query.limit, req.query.offset);
  });
  const LogFilter = Type.Composite([
    page(1000),
    Type.Object({
      source: Type.Optional(Type.String({ pattern: '^[a-z0-9_]+$', maxLength: 200 })),
      level: Type.Optional(Type.Union(['debug', 'info', 'warn', 'warning', 'error'].map((l) => Type.Literal(l)))),
      since: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}', maxLength: 40, description: 'ISO time; lines at or after it' })),
      until: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}', maxLength: 40, description: 'ISO time; lines at or before it' })),
    }),
  ]);
  ctx.routes.get('/api/logs', { permission: 'public', schema: { querystring: LogFilter, summary: 'Sync log lines of every source, newest first (filters: source, level, since, until)' } }, async (req) => {
    const q = req.query as { limit: number; offset: number; source?: string; level?: string; since?: string; until?: string };
    return d.store.logs(q.source ?? null, q.limit, q.offset, { level: q.level, since: q.since, until: q.until });
  });
  ctx.routes.get('/api/sync/recent', { permission: 'source.view', schema: { summary: 'Recent syncs of every source, newest first', querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 10 }) }) } }, async (req) => ({
    items: d.store.recent((req.query as { limit: number }).limit),
  }));
  ctx.routes.get('/api/sync/daily', { permission: 'source.view', schema: { summary: 'Rows loaded per day over the last days (every day listed, zeros included)', querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }) } }, async (req) => {
    const days = (req.query as { days: number }).days;
    const today = new Date(ctx.clock.now().toISOString().slice(0, 10) + 'T00:00:00Z');
    const first = new Date(today.getTime() - (days - 1) * 86400_000).toISOString().slice(0, 10);
    const by = new Map(d.store.perDay(first).map((r) => [r.day, r]));
    return {
      days: Array.from({ length: days }, (_, i) => {
        const day = new Date(today.getTime() - (days - 1 - i) * 86400_000).toISOString().slice(0, 10);
        const r = by.get(day);
        return { day, rows: r?.rows ?? 0, syncs: r?.syncs ?? 0, failed: r?.failed ?? 0 };
      }),
    };
  });
  ctx.routes.get('/api/watcher/status', { permission: 'public', schema: { summary: 'File watcher status and configuration' } }, async () => d.watcher.status());
}
