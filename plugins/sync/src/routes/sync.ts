import { errors, type PluginContext, coreErrors } from '@basin/core';
import { Type } from '@sinclair/typebox';
import type { SyncEngineImpl } from '../engine.js';
import type { SourcesConfig } from '@basin/plugin-sources/contract';
import type { SyncOptions } from '../types.js';
import { SourceParams } from './params.js';
import { syncErrors } from '../errors.js';

const DATE = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const SyncBody = Type.Object(
  { full_refresh: Type.Boolean({ default: false }), start_date: Type.Optional(DATE), end_date: Type.Optional(DATE) },
  { additionalProperties: false },
);
const TriggerBody = Type.Object(
  { sources: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }), full_refresh: Type.Boolean({ default: false }) },
  { additionalProperties: false },
);

function checkDates(start?: string, end?: string): void {
  for (const [k, v] of [['start_date', start], ['end_date', end]] as const) {
    if (v && Number.isNaN(new Date(`${v}T00:00:00Z`).getTime())) throw syncErrors.invalid_date({ field: k, value: v }, { details: { field: k } });
    if (v && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v) throw syncErrors.invalid_date({ field: k, value: v }, { details: { field: k } });
  }
  if (start && end && end < start) throw syncErrors.invalid_date_range({ start, end }, { details: { start_date: start, end_date: end } });
}

export function registerSyncRoutes(ctx: PluginContext, engine: SyncEngineImpl, sources: SourcesConfig): void {
  ctx.routes.post(
    '/api/sources/:source_name/sync',
    { errors: [syncErrors.invalid_date, syncErrors.invalid_date_range, syncErrors.sync_in_progress], response: { 202: Type.Unknown({ description: 'the sync started' }) },
      permission: 'source.sync',
      schema: { params: SourceParams, body: SyncBody, summary: 'Start a sync of one source (202 with the sync record)' },
      // every field has a default, so an empty request is a plain sync
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
    },
    async (req, reply) => {
      const body = (req.body ?? {}) as { full_refresh?: boolean; start_date?: string; end_date?: string };
      checkDates(body.start_date, body.end_date);
      const s = sources.find(req.params.source_name);
      if (!s) throw errors.notFound(`Source "${req.params.source_name}"`);
      const opts: SyncOptions = { fullRefresh: body.full_refresh, startDate: body.start_date, endDate: body.end_date, trigger: 'api' };
      reply.code(202);
      const record = engine.start(s.name, opts);
      return { ...record, record_id: record.id };
    },
  );

  ctx.routes.post('/api/sync/trigger', { errors: [syncErrors.sync_in_progress], response: { 202: Type.Unknown({ description: 'the syncs started' }) }, permission: 'source.sync', schema: { body: TriggerBody, summary: 'Start syncs of several sources' } }, async (req, reply) => {
    const body = req.body as { sources: string[]; full_refresh: boolean };
    const unknown = body.sources.filter((n) => !sources.find(n));
    if (unknown.length) throw errors.notFound(`Source(s) ${unknown.map((n) => `"${n}"`).join(', ')}`, { sources: unknown });
    const started = [];
    const skipped = [];
    for (const name of [...new Set(body.sources)]) {
      if (engine.isRunning(name)) skipped.push({ source: name, reason: 'sync_in_progress' });
      else started.push(engine.start(name, { fullRefresh: body.full_refresh, trigger: 'api' }));
    }
    reply.code(202);
    return { started, skipped };
  });

  ctx.routes.get('/api/sync/status/:record_id', { permission: 'source.sync', schema: { params: Type.Object({ record_id: Type.String({ maxLength: 100 }) }), summary: 'A sync record (poll a manual sync)' } }, async (req) => {
    const r = engine.get(req.params.record_id);
    if (!r) throw errors.notFound(`Sync record "${req.params.record_id}"`);
    return r;
  });

  ctx.routes.post('/api/sync/:record_id/cancel', { errors: [coreErrors.not_running], permission: 'source.sync', schema: { params: Type.Object({ record_id: Type.String({ maxLength: 100 }) }), summary: 'Cancel a running sync' } }, async (req) => {
    const r = engine.get(req.params.record_id);
    if (!r) throw errors.notFound(`Sync record "${req.params.record_id}"`);
    if (!engine.cancel(r.id)) throw coreErrors.not_running({ reason: `Sync ${r.id} is not running (status ${r.status}).` });
    return { cancelled: true, id: r.id };
  });
}
