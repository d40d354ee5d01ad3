import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import { addLogRedactor, coreServices, definePlugin, DuckDBWarehouseClient, removeServerInfo, writeServerInfo, type PluginContext, type Warehouse, type WarehouseClient } from '@basin/core';
import { redactSecrets } from '@basin/sdk';
import { Type } from '@sinclair/typebox';
import { rawSchema, sourceOAuthRef, sourcePermissions, sourceRegistryRef, sourcesConfigRef, sourceStatusPoint } from '@basin/plugin-sources/contract';
import { notConnected } from '@basin/sdk';
import { registerSyncCommands } from './cli/commands.js';
import { syncEngineRef, syncHistoryRef, syncLoadHooksPoint, syncPermissions, syncRemoteRef } from './contract.js';
import { SyncEngineImpl } from './engine.js';
import { knownSecrets } from './context.js';
import { registerFileRoutes, type UploadsSection } from './routes/files.js';
import { registerLogRoutes } from './routes/logs.js';
import { registerSourceAdminRoutes } from './routes/source-admin.js';
import { registerSyncRoutes } from './routes/sync.js';
import { syncState } from './sync-state.js';
import { SyncStore } from './store.js';
import { FileWatcher } from './watcher.js';

export * from './types.js';
export * from './contract.js';
export { SyncEngineImpl } from './engine.js';
export { SyncStore } from './store.js';
export { LoadSession } from './loader.js';

/** a page module of this plugin (served by the web plugin with its folder) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));

/** project.yml `uploads:` (beyond SPEC, which leaves the upload size open) */
export const UploadsSchema = Type.Object({ max_file_mb: Type.Integer({ minimum: 1, maximum: 102400, default: 500 }) }, { additionalProperties: false, default: {} });

/** project.yml `sync:` (beyond SPEC) */
export const SyncSectionSchema = Type.Object(
  { load_memory_limit_mb: Type.Union([Type.Integer({ minimum: 64 }), Type.Null()], { default: 192, description: 'DuckDB memory limit while loading (spills beyond it); null = no limit' }) },
  { additionalProperties: false, default: {} },
);

export default definePlugin({
  name: 'sync',
  permissions: [sourcePermissions.view, ...Object.values(syncPermissions)],
  dependsOn: ['sources'],
  optionalDependsOn: ['auth'],
  configSections: [
    { section: 'uploads', schema: UploadsSchema },
    { section: 'sync', schema: SyncSectionSchema },
  ],
  commands: registerSyncCommands,
  doctor: async (d) => (await import('./cli/doctor.js')).sourceDoctorChecks(d),
  async register(ctx: PluginContext) {
    const registry = ctx.resolve(sourceRegistryRef);
    const sources = ctx.resolve(sourcesConfigRef);
    const store = new SyncStore(ctx.resolve(coreServices.stateDb));
    const warehouse = ctx.resolve(coreServices.warehouse);
    // loads (and publishing the serving copy) run under this limit: DuckDB spills beyond it
    const limit = ctx.config.section<{ load_memory_limit_mb?: number | null } | undefined>('sync')?.load_memory_limit_mb;
    warehouse.setLoadMemoryLimit(limit === null ? null : (limit ?? 192));
    const engine = new SyncEngineImpl({
      config: ctx.config,
      registry,
      sources,
      warehouse,
      // a server backend gets each sync's tables after DuckDB, the load engine, committed them
      serverWarehouse: serverWarehouse(ctx.resolve(coreServices.warehouseClient), warehouse),
      store,
      events: ctx.events,
      clock: ctx.clock,
      log: ctx.log,
      // resolved at sync time: the secrets plugin may register after this one
      oauthToken: (type) => {
        const tokens = ctx.tryResolve(sourceOAuthRef);
        return tokens ? tokens.token(type) : notConnected(type)();
      },
    });
    await engine.recover();
    // the server log masks every credential a source was given, in every encoding, whoever logs it
    const unregisterRedactor = addLogRedactor((text) => redactSecrets(text, knownSecrets));
    ctx.onStop(() => void unregisterRedactor());
    const watcher = new FileWatcher(ctx.config, sources, engine, ctx.log);

    ctx.provide(syncEngineRef, engine);
    ctx.provide(syncHistoryRef, store);
    ctx.provide(syncRemoteRef, engine);
    ctx.provideExtensionPoint(syncLoadHooksPoint, engine);
    ctx.events.declare('sync_started', 'sync_progress', 'sync_completed', 'sync_failed', 'csv_uploaded', 'freshness_update');

    const maxBytes = (ctx.config.section<UploadsSection>('uploads')?.max_file_mb ?? 500) * 1024 * 1024;
    await ctx.http.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 10 } });

    // the sources API shows each source's sync state and history from here
    ctx.extensionPoint(sourceStatusPoint)?.contribute({
      sync: (name) => syncState({ store, engine, clock: ctx.clock }, name),
      syncHistory: (name, limit) => store.history(name, limit),
    });
    registerSyncRoutes(ctx, engine, sources);
    registerSourceAdminRoutes(ctx, { registry, engine, sources });
    registerFileRoutes(ctx, { sources, store, engine, maxBytes });
    registerLogRoutes(ctx, { sources, store, watcher });

    ctx.health(() => {
      const all = sources.all();
      return {
        sync_failures: store.failures().map((r) => ({ source: r.source, sync_id: r.id, error: r.error, failed_at: r.finished_at })),
        total_sources: all.length,
        enabled_sources: all.filter((s) => s.enabled !== false).length,
      };
    });
    ctx.page({ path: '/sources', title: 'Sources', permission: 'source.view', section: 'Data', order: 20, file: uiFile('sources.js') });
    ctx.page({ path: '/logs', title: 'Logs', permission: 'source.view', section: 'Operate', order: 40, file: uiFile('logs.js') });

    // the CLI talks to a running server instead of opening the warehouse it holds
    ctx.http.addHook('onListen', async () => {
      const addr = ctx.http.server.address() as AddressInfo | null;
      if (!addr || typeof addr === 'string') return;
      const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      writeServerInfo(ctx.config.projectDir, { pid: process.pid, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${addr.port}`, started_at: new Date().toISOString() });
    });
    ctx.onStart(() => watcher.start());
    ctx.onStop(async () => {
      removeServerInfo(ctx.config.projectDir);
      await watcher.stop();
      await engine.stop();
    });
  },
});

function serverWarehouse(client: WarehouseClient, engine: Warehouse): { local: WarehouseClient; server: WarehouseClient } | undefined {
  return client.capabilities.servingCopy ? undefined : { local: new DuckDBWarehouseClient(engine), server: client };
}
