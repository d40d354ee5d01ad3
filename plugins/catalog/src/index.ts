import { asValue, definePlugin, type SqliteDb, type Warehouse } from '@basin/core';
import { ArtifactReader } from './artifacts.js';
import { registerCatalogRoutes } from './routes.js';
import { Catalog, type GovernanceView } from './service.js';
import { CatalogStore } from './store.js';

export * from './service.js';
export type { CatalogNode, Layer } from './graph.js';
export type { TableProfile, ColumnProfile } from './profile.js';
export type { AgentTool } from './tools.js';

/** Catalog of raw tables and dbt models, lineage, impact, search, profiles, agent summary and tools (SPEC "Catalog"). */
export default definePlugin({
  name: 'catalog',
  optionalDependsOn: ['governance', 'transform'],
  register(ctx) {
    const targetDir = ctx.config.resolve(ctx.config.platform.tx_project_dir, 'target');
    const catalog = new Catalog(
      ctx.resolve<Warehouse>('warehouse'),
      new CatalogStore(ctx.resolve<SqliteDb>('stateDb')),
      new ArtifactReader(targetDir, (m) => ctx.log.warn(m)),
      ctx.clock,
      () => ctx.tryResolve<GovernanceView>('governance'),
    );
    ctx.provide('catalog', asValue(catalog));
    // freshness for the summary: the last successful load per source
    ctx.events.on('sync_completed', (p) => {
      const e = p as unknown as { source: string; rows?: number; sync_id?: string };
      catalog.recordSync(e.source, typeof e.rows === 'number' ? e.rows : null, e.sync_id ?? null);
    });
    registerCatalogRoutes(ctx, catalog);
  },
});
