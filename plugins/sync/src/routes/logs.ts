import { errors, type PluginContext } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { findSource } from '../source-config.js';
import type { SyncStore } from '../store.js';
import type { FileWatcher } from '../watcher.js';
import { SourceParams } from './sources.js';

const page = (def: number) => Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 10000, default: def }), offset: Type.Integer({ minimum: 0, default: 0 }) });

export function registerLogRoutes(ctx: PluginContext, d: { store: SyncStore; watcher: FileWatcher }): void {
  ctx.routes.get('/api/sources/:source_name/logs', { permission: 'public', schema: { params: SourceParams, querystring: page(100), summary: "A source's sync log lines, newest first" } }, async (req) => {
    if (!findSource(ctx.config, req.params.source_name)) throw errors.notFound(`Source "${req.params.source_name}"`);
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
  ctx.routes.get('/api/watcher/status', { permission: 'public', schema: { summary: 'File watcher status and configuration' } }, async () => d.watcher.status());
}
