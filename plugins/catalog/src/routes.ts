import { Type } from '@sinclair/typebox';
import { coreServices, type PluginContext } from '@basin/core';
import type { Catalog } from './service.js';
import { toolsFromOpenApi } from './tools.js';

/** names from URLs: letters, digits, underscore, dot, dash; anything else is refused with 422 before any SQL */
const Name = Type.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$' });

/** SPEC "Catalog": every route needs governance.view except summary and tools (source.view). */
export function registerCatalogRoutes(ctx: PluginContext, catalog: Catalog): void {
  const view = 'governance.view';
  ctx.routes.get('/api/catalog/models', { permission: view, schema: { summary: 'Sources and models with an overview of each' } }, async () => catalog.models());

  ctx.routes.get(
    '/api/catalog/models/:model_name',
    { permission: view, schema: { summary: 'A model: columns with profiles, raw and compiled SQL, tests, dependencies, dependents, lineage', params: Type.Object({ model_name: Name }) } },
    async (req) => catalog.model(req.params.model_name),
  );

  ctx.routes.get('/api/catalog/lineage', { permission: view, schema: { summary: 'Lineage DAG: raw tables, staging, intermediate and mart models' } }, async () => catalog.lineage());

  ctx.routes.get(
    '/api/catalog/impact/:model_name',
    { permission: view, schema: { summary: 'Everything downstream of a model, as a tree with a total count', params: Type.Object({ model_name: Name }) } },
    async (req) => catalog.impact(req.params.model_name),
  );

  ctx.routes.get(
    '/api/catalog/search',
    { permission: view, schema: { summary: 'Search names, descriptions and column names (ranked)', querystring: Type.Object({ q: Type.String({ minLength: 2, maxLength: 100 }) }) } },
    async (req) => catalog.search(req.query.q),
  );

  ctx.routes.get(
    '/api/catalog/summary',
    { permission: 'source.view', schema: { summary: 'Machine-readable summary for agents: table schemas, freshness, quality signals (reduced without governance.view)' } },
    async (req) => catalog.summary(!!req.principal?.permissions.has('governance.view'), { name: ctx.config.project?.name, purpose: (ctx.config.project as { purpose?: string } | undefined)?.purpose ?? null }),
  );

  ctx.routes.get('/api/tools', { permission: 'source.view', schema: { summary: 'Descriptions of the API operations the caller may use, for agents' } }, async (req) => {
    const perms = req.principal?.permissions ?? new Set<string>();
    const doc = ctx.resolve(coreServices.app).http.swagger();
    return toolsFromOpenApi(doc, (p) => p === 'public' || p === 'auth' || perms.has(p));
  });

  const TableParams = Type.Object({ source: Name, table: Name });
  ctx.routes.get(
    '/api/catalog/:source/:table/columns',
    { permission: view, schema: { summary: 'Column schema of a table with its cached profile', params: TableParams } },
    async (req) => {
      const p = req.params;
      return catalog.columns(p.source, p.table);
    },
  );
  ctx.routes.post(
    '/api/catalog/:source/:table/profile',
    { permission: view, schema: { summary: 'Compute a fresh profile (one pass): type, nullable, null %, distinct, min, max', params: TableParams } },
    async (req) => {
      const p = req.params;
      return catalog.profile(p.source, p.table);
    },
  );
}
