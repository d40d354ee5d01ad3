import { fileURLToPath } from 'node:url';
import { coreServices, definePlugin } from '@basin/core';
import { governanceRef, governancePermissions } from '@basin/plugin-governance/contract';
import type { SyncCompleted } from '@basin/plugin-sync/contract';
import { ArtifactReader } from './artifacts.js';
import { registerCatalogRoutes } from './routes.js';
import { catalogRef } from './contract.js';
import { Catalog } from './service.js';
import { CatalogStore } from './store.js';
import { registerCatalogCommands } from './cli/catalog.js';
import { sourcePermissions } from '@basin/plugin-sources/contract';

/** a page module of this plugin (served by the web plugin with its folder, ctx.page) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));

export * from './service.js';
export * from './contract.js';
export type { CatalogNode, Layer } from './graph.js';
export type { TableProfile, ColumnProfile } from './profile.js';
export type { AgentTool } from './tools.js';

/** Catalog of raw tables and dbt models, lineage, impact, search, profiles, agent summary and tools (SPEC "Catalog"). */
export default definePlugin({
  name: 'catalog',
  permissions: [sourcePermissions.view, governancePermissions.view],
  optionalDependsOn: ['governance', 'transform'],
  commands: registerCatalogCommands,
  register(ctx) {
    ctx.page({ path: '/catalog', title: 'Catalog', permission: 'governance.view', section: 'Data', order: 40, file: uiFile('catalog.js') });
    const targetDir = ctx.config.resolve(ctx.config.platform.tx_project_dir, 'target');
    const catalog = new Catalog(
      ctx.resolve(coreServices.warehouseClient),
      ctx.resolve(coreServices.warehouse),
      new CatalogStore(ctx.resolve(coreServices.stateDb)),
      new ArtifactReader(targetDir, (m) => ctx.log.warn(m)),
      ctx.clock,
      () => ctx.tryResolve(governanceRef),
    );
    ctx.provide(catalogRef, catalog);
    // freshness for the summary: the last successful load per source
    ctx.events.on('sync_completed', (e: SyncCompleted) => catalog.recordSync(e.source, e.rows, e.sync_id));
    registerCatalogRoutes(ctx, catalog);
  },
});
