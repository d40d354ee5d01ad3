import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import { BASIN_VERSION, coreServices, definePlugin, errors } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { biFileSpec, cloudFileSpec } from './config.js';
import { platformHealth } from './health.js';
import { platformPermissions } from './permissions.js';
import { ConfigBody, StatusBody } from './responses.js';

/** a page module of this plugin (served by the web plugin with its folder, ctx.page) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));

export * from './config.js';
export * from './health.js';

/** the warehouse file's size in bytes, with its WAL; undefined before the first write made it */
function fileSize(dbPath: string): number | undefined {
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : undefined);
  const db = size(dbPath);
  return db === undefined ? undefined : db + (size(`${dbPath}.wal`) ?? 0);
}

/** Status, configuration and health endpoints (SPEC "Health, status, configuration"). */
export default definePlugin({
  name: 'platform',
  permissions: Object.values(platformPermissions),
  configFiles: [cloudFileSpec, biFileSpec],
  register(ctx) {
    ctx.page({ path: '/', title: 'Overview', section: 'Data', order: 10, file: uiFile('overview.js') });
    ctx.page({ path: '/health', title: 'Health', section: 'Operate', order: 30, file: uiFile('health.js') });
    // the secrets API (config.manage) comes from the secrets feature; the page says how to enable it when absent
    ctx.page({ path: '/settings/secrets', title: 'Secrets', permission: 'config.manage', section: 'Settings', order: 30, file: uiFile('secrets.js') });
    const app = () => ctx.resolve(coreServices.app);
    const baseUrl = (req: { protocol: string; host: string }) => `${req.protocol}://${req.host}`;

    ctx.routes.get('/api/status', { permission: 'public', schema: { summary: 'Health of the warehouse and companion tools' }, response: { 200: StatusBody } }, async () => {
      const a = app();
      let warehouse: Record<string, unknown>;
      try {
        // DuckDB opens on first use (issue 19): a status poll reports a closed warehouse from its file, without opening it
        const opened = a.warehouse.isOpen;
        if (opened) await a.warehouse.query('SELECT 1');
        const at = a.warehouse.servingCopyAt;
        const size = opened ? undefined : fileSize(a.warehouse.dbPath);
        warehouse = { status: 'ok', opened, ...(size === undefined ? {} : { size_bytes: size }), serving_copy: at ? { published_at: at.toISOString(), age_seconds: Math.round((ctx.clock.now().getTime() - at.getTime()) / 1000) } : null };
      } catch (e) {
        warehouse = { status: 'error', error: (e as Error).message };
      }
      const companions = await a.companions();
      const ok = warehouse.status === 'ok';
      return { status: ok ? 'ok' : 'degraded', version: BASIN_VERSION, warehouse, companions };
    });

    ctx.routes.get('/api/config', { permission: 'public', schema: { summary: 'Project metadata and service URLs (nothing sensitive)' }, response: { 200: ConfigBody } }, async (req) => {
      const p = ctx.config.project;
      const pl = ctx.config.platform;
      const base = baseUrl(req);
      return {
        project: { name: p.name, organization: p.organization ?? null, purpose: p.purpose, basin_version: p.basin_version ?? null, created: p.created, sla: p.sla ?? null, limitations: p.limitations ?? null, getting_started: p.getting_started ?? null, stakeholders: p.stakeholders ?? [] },
        deployment: pl.deployment,
        auth_enabled: ctx.config.section<{ enabled?: boolean }>('auth')?.enabled ?? false,
        services: { api: `${base}/api`, docs: `${base}/api/docs`, redoc: `${base}/api/redoc`, bi: `${base}/bi/`, tx_docs: `${base}/tx-docs/`, websocket: `${base.replace(/^http/, 'ws')}/ws` },
        ports: { port: pl.port, bi_port: pl.bi_port, tx_docs_port: pl.tx_docs_port, notebook_port: pl.notebook_port },
        features: { auto_sync: pl.auto_sync, auto_tx: pl.auto_tx },
        plugins: app().plugins.map((pp) => pp.name),
      };
    });

    ctx.routes.get('/api/health/platform', { permission: 'public', schema: { summary: 'Platform health: database, disk, failures, issues' } }, async () => platformHealth(app()));

    ctx.routes.get('/api/metabase-config', { permission: 'public', schema: { summary: "The warehouse's database id in the dashboard tool" }, response: { 200: Type.Object({ database_id: Type.Union([Type.Integer(), Type.Null()]) }) } }, async () => {
      const bi = ctx.config.sensitive<{ database: { id?: number } }>('bi');
      return { database_id: bi.database?.id ?? null };
    });

    ctx.routes.get(
      '/api/deployments/history',
      { permission: 'platform.manage', schema: { summary: 'Deploy journal (cloud only)', querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }), offset: Type.Integer({ minimum: 0, default: 0 }) }) } },
      async (req) => {
        if (ctx.config.platform.deployment !== 'cloud') throw errors.notFound('Deployment history', { reason: 'cloud_only' });
        const file = ctx.config.resolve('.basin', 'deployments.jsonl');
        const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
        const items = lines.map((l) => JSON.parse(l)).reverse();
        return { items: items.slice(req.query.offset, req.query.offset + req.query.limit), total: items.length };
      },
    );
  },
});
