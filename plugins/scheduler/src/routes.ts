import fs from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { isMap, isSeq, parseDocument } from 'yaml';
import { errors, writeFileAtomic, type PluginContext } from '@basin/core';
import { configuredSources, sourcesConfigRef } from '@basin/plugin-sources/contract';
import { schedulesFileSpec } from './config.js';
import type { Scheduler } from './scheduler.js';
import type { JobStore } from './store.js';
import { schedulerErrors } from './errors.js';

const Page = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }), offset: Type.Integer({ minimum: 0, default: 0 }) });
const NameParam = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
const JobParam = Type.Object({ job_id: Type.String({ minLength: 1, maxLength: 100 }) });

/** SPEC "Schedules and notifications" (schedule half) plus GET /api/sources/unscheduled. */
export function registerScheduleRoutes(ctx: PluginContext, scheduler: Scheduler, store: JobStore): void {
  const must = (name: string) => {
    const s = scheduler.get(name);
    if (!s) throw errors.notFound(`Schedule "${name}"`, { available: scheduler.current().schedules.map((x) => x.name) });
    return s;
  };

  ctx.routes.get('/api/schedules', { permission: 'scheduler.view', schema: { summary: 'All schedules with next run, last run and active jobs' } }, async () =>
    scheduler.current().schedules.map((s) => scheduler.view(s)),
  );

  // registered before /:name so "history" is never read as a schedule name
  ctx.routes.get('/api/schedules/history/recent', { permission: 'scheduler.view', schema: { summary: 'Recent jobs of every schedule, newest first', querystring: Page } }, async (req) =>
    store.recent(req.query.limit, req.query.offset),
  );

  ctx.routes.get('/api/schedules/jobs/:job_id', { permission: 'scheduler.view', schema: { summary: 'One job with its captured log (beyond SPEC)', params: JobParam } }, async (req) => {
    const job = store.getWithLog(req.params.job_id);
    if (!job) throw errors.notFound(`Job "${req.params.job_id}"`);
    return job;
  });

  ctx.routes.get('/api/schedules/:name', { permission: 'scheduler.view', schema: { summary: 'One schedule with next run, last run and active jobs', params: NameParam } }, async (req) =>
    scheduler.view(must(req.params.name)),
  );

  ctx.routes.get('/api/schedules/:name/history', { permission: 'scheduler.view', schema: { summary: "A schedule's jobs, newest first", params: NameParam, querystring: Page } }, async (req) => {
    const name = req.params.name as string;
    // history stays readable for a schedule removed from the file
    const page = store.history(name, req.query.limit, req.query.offset);
    if (!scheduler.get(name) && page.total === 0) must(name);
    return page;
  });

  ctx.routes.post('/api/schedules/:name/trigger', { errors: [schedulerErrors.schedule_running], response: { 202: Type.Unknown({ description: 'the job started' }) }, permission: 'source.sync', schema: { summary: 'Run a schedule now', params: NameParam } }, async (req, reply) => {
    const job = scheduler.trigger(req.params.name);
    reply.code(202);
    return job;
  });

  // enable or disable from the UI: the one line in schedules.yml changes (comments kept), then the same
  // validated reload as POST /api/schedules/reload; a file that would not validate is put back
  ctx.routes.patch('/api/schedules/:name', { permission: 'scheduler.manage', schema: { summary: 'Enable or disable a schedule (edits schedules.yml and reloads it)', params: NameParam, body: Type.Object({ enabled: Type.Boolean() }) } }, async (req) => {
    must(req.params.name);
    const rel = [schedulesFileSpec.path, ...(schedulesFileSpec.aliases ?? [])].find((p) => fs.existsSync(ctx.config.resolve(p)));
    if (!rel) throw errors.notFound(`${path.basename(schedulesFileSpec.path)}`);
    const file = ctx.config.resolve(rel);
    const before = fs.readFileSync(file, 'utf8');
    const doc = parseDocument(before);
    const list = doc.get('schedules');
    const item = isSeq(list) ? list.items.find((it) => isMap(it) && it.get('name') === req.params.name) : undefined;
    if (!isMap(item)) throw errors.notFound(`Schedule "${req.params.name}" in ${rel}`);
    if (req.body.enabled) item.delete('enabled');
    else item.set('enabled', false);
    writeFileAtomic(file, doc.toString());
    try {
      scheduler.reload();
    } catch (e) {
      writeFileAtomic(file, before);
      throw e;
    }
    return must(req.params.name);
  });

  ctx.routes.post('/api/schedules/reload', { errors: [schedulerErrors.config_invalid], permission: 'scheduler.manage', schema: { summary: 'Re-read schedules.yml (validated first; on error the running schedules stay)' } }, async () =>
    scheduler.reload(),
  );

  ctx.routes.post('/api/schedules/jobs/:job_id/cancel', { errors: [schedulerErrors.job_not_running], permission: 'scheduler.manage', schema: { summary: 'Cancel a running job (stops its sync, dbt run or script) or a queued retry', params: JobParam } }, async (req) => {
    const job = scheduler.cancel(req.params.job_id);
    if (job.status === 'running') {
      // the abort settles the job promptly; answer with its final record
      return (await scheduler.wait(job.id)) ?? job;
    }
    return job;
  });

  ctx.routes.get('/api/sources/unscheduled', { permission: 'scheduler.view', schema: { summary: 'Sources that no enabled sync schedule lists' } }, async () => {
    // the live list: a source added while the server runs is listed too
    const sources = ctx.tryResolve(sourcesConfigRef)?.all() ?? configuredSources(ctx.config);
    const scheduled = new Set(
      scheduler
        .current()
        .schedules.filter((s) => s.enabled && (s.type === 'sync' || s.type === 'sync_only'))
        .flatMap((s) => s.sources ?? []),
    );
    return sources.filter((s) => !scheduled.has(s.name)).map((s) => ({ name: s.name, type: s.type, enabled: s.enabled !== false }));
  });
}
