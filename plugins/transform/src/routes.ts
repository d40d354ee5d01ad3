import fs from 'node:fs';
import path from 'node:path';
import { errors, resolveInside, type PluginContext, coreErrors } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { hasModel, listModels, readManifest } from './artifacts.js';
import type { TxHistory } from './history.js';
import type { DbtRunner } from './runner.js';
import type { StagingStore } from './staging-store.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

// dbt node selection syntax (https://docs.getdbt.com/reference/node-selection/syntax): `+model`, `model+2`,
// `@model`, `tag:x`, `path:models/marts`, `config.materialized:table`, intersections with commas, `*` globs.
const SELECTOR_TOKEN = '^[A-Za-z0-9_.:+@*/,=-]+$';
const Selector = Type.String({ minLength: 1, maxLength: 200, pattern: SELECTOR_TOKEN });
const RunBody = Type.Object(
  {
    command: Type.Union([Type.Literal('run'), Type.Literal('build'), Type.Literal('test'), Type.Literal('seed'), Type.Literal('snapshot')], { default: 'run' }),
    select: Type.Optional(Type.Union([Selector, Type.Array(Selector, { minItems: 1, maxItems: 100 })], { description: 'dbt selector(s); none runs everything' })),
    full_refresh: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

const Page = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }), offset: Type.Integer({ minimum: 0, default: 0 }) });

/** Model files under models/ (a model added since the last parse is not in manifest.json yet). */
function modelFileExists(modelsDir: string, name: string): boolean {
  const walk = (d: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name === `${name}.sql` || e.name === `${name}.py`));
  };
  return walk(modelsDir);
}

export function registerRoutes(ctx: PluginContext, deps: { runner: DbtRunner; history: TxHistory; staging: StagingStore; txDir: () => string }): void {
  const { runner, history } = deps;
  const target = () => path.join(deps.txDir(), 'target');

  ctx.routes.get('/api/tx/models', { permission: 'public', schema: { summary: 'Every model and source of the dbt project with its last run' } }, async () =>
    listModels(readManifest(target()), history.latestByNode(), deps.staging.missingTables()),
  );

  ctx.routes.post(
    '/api/tx/models/:model_name/run',
    { response: { 202: Type.Unknown({ description: 'the run queued' }) },
      permission: 'tx.run',
      schema: {
        summary: 'Run one model (and, with cascade, everything downstream)',
        params: Type.Object({ model_name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$' }) }),
        querystring: Type.Object({ cascade: Type.Boolean({ default: true }), full_refresh: Type.Boolean({ default: false }) }),
      },
    },
    async (req, reply) => {
      const name: string = req.params.model_name;
      if (!hasModel(readManifest(target()), name) && !modelFileExists(path.join(deps.txDir(), 'models'), name)) throw errors.notFound(`Model "${name}"`);
      const rec = runner.start({ command: 'run', select: name, cascade: req.query.cascade, trigger: 'api', args: req.query.full_refresh ? ['--full-refresh'] : [] });
      void runner.wait(rec.id).catch(() => undefined);
      reply.code(202);
      return rec;
    },
  );

  ctx.routes.post(
    '/api/tx/runs',
    { response: { 202: Type.Unknown({ description: 'the run queued' }) },
      permission: 'tx.run',
      schema: {
        summary: 'Start dbt run, build, test, seed or snapshot with any dbt selector (none: everything); answers the queued run record',
        body: RunBody,
      },
    },
    async (req, reply) => {
      const body = req.body;
      if (body.full_refresh && (body.command === 'test' || body.command === 'snapshot')) throw errors.badRequest(`full_refresh applies to run, build and seed, not ${body.command}.`, { field: 'full_refresh' });
      const select = Array.isArray(body.select) ? body.select.join(' ') : body.select;
      const rec = runner.start({ command: body.command, select, trigger: req.headers['x-basin-cli'] ? 'cli' : 'api', args: body.full_refresh ? ['--full-refresh'] : [] });
      void runner.wait(rec.id).catch(() => undefined);
      reply.code(202);
      return rec;
    },
  );

  ctx.routes.get(
    '/api/tx/runs/:id/output',
    {
      permission: 'tx.view',
      schema: {
        summary: "dbt's console output of a recent run from line `after` on (the CLI streams it while the server runs dbt)",
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ after: Type.Integer({ minimum: 0, default: 0 }) }),
      },
    },
    async (req) => {
      const r = runner.get(req.params.id);
      if (!r) throw errors.notFound('Transformation run');
      const out = runner.output(req.params.id, req.query.after) ?? { lines: [], next: req.query.after };
      return { ...out, status: r.status, finished: !['queued', 'running'].includes(r.status) };
    },
  );

  ctx.routes.get('/api/tx/runs', { permission: 'tx.view', schema: { summary: 'Transformation run history', querystring: Page } }, async (req) =>
    history.list(req.query.limit, req.query.offset),
  );

  ctx.routes.get('/api/tx/runs/:id', { permission: 'tx.view', schema: { summary: 'One transformation run', params: Type.Object({ id: Type.String({ maxLength: 100 }) }) } }, async (req) => {
    const r = runner.get(req.params.id);
    if (!r) throw errors.notFound('Transformation run');
    return r;
  });

  ctx.routes.post('/api/tx/runs/:id/cancel', { errors: [coreErrors.not_running], permission: 'tx.run', schema: { summary: 'Cancel a queued or running transformation run', params: Type.Object({ id: Type.String({ maxLength: 100 }) }) } }, async (req) => {
    if (!runner.get(req.params.id)) throw errors.notFound('Transformation run');
    if (!runner.cancel(req.params.id)) throw coreErrors.not_running({ reason: 'That run is not queued or running.' });
    return { cancelled: true };
  });

  ctx.routes.get('/api/tx/staging', { permission: 'tx.view', schema: { summary: 'Latest staging-model generation report per source' } }, async () => deps.staging.all());

  // dbt docs: the static site dbt writes into target/ (served by Basin itself, see docs/decisions.md)
  const sendTargetFile = (rel: string, reply: any) => {
    const t = target();
    if (!fs.existsSync(t)) throw errors.notFound('Transformation docs (run `basin tx docs` or a dbt run first)');
    const file = resolveInside(t, rel);
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) throw errors.notFound('Docs file');
    reply.header('content-type', MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
    reply.header('cache-control', 'no-cache');
    return reply.send(fs.createReadStream(file));
  };
  const docsFiles = new Set(['index.html', 'manifest.json', 'catalog.json']);
  ctx.routes.get('/tx-docs', { permission: 'tx.view', schema: { hide: true } }, async (_req, reply) => reply.redirect('/tx-docs/'));
  ctx.routes.get('/tx-docs/*', { permission: 'tx.view', schema: { summary: 'dbt docs site', hide: true, params: Type.Object({ '*': Type.String() }) } }, async (req, reply) => {
    const rel = req.params['*'] || 'index.html';
    // only the docs site's own files: never run_results, compiled SQL or logs
    if (!docsFiles.has(rel)) throw errors.notFound('Docs file');
    return sendTargetFile(rel, reply);
  });
  ctx.routes.get('/manifest.json', { permission: 'tx.view', schema: { summary: 'dbt manifest.json', hide: true } }, async (_req, reply) => sendTargetFile('manifest.json', reply));
  ctx.routes.get('/catalog.json', { permission: 'tx.view', schema: { summary: 'dbt catalog.json', hide: true } }, async (_req, reply) => sendTargetFile('catalog.json', reply));
}
