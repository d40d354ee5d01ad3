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
  ctx.routes.get('/api/logs', { permission: 'public', schema: { querystring: page(1000), summary: 'Sync log lines of every source, newest first' } }, async (req) => d.store.logs(null, req.query.limit, req.query.offset));
  ctx.routes.get('/api/watcher/status', { permission: 'public', schema: { summary: 'File watcher status and configuration' } }, async () => d.watcher.status());
}
