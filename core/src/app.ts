import path from 'node:path';
import { createRequire } from 'node:module';
import type { AwilixContainer, Resolver } from 'awilix';
import type { FastifyInstance } from 'fastify';
import { awilix } from './lazy-deps.js';
import { projectPluginNames } from './config/platform-settings.js';
import { Type } from '@sinclair/typebox';
import { systemClock, type Clock } from './clock.js';
import { EventBus } from './events.js';
import { PermissionRegistry, recordBundledPermissions } from './rbac.js';
import { ConfigLoadError, loadConfig } from './config/loader.js';
import { BasinConfig } from './config/service.js';
import type { ConfigFileSpec } from './config/types.js';
import type { BodyRateOptions } from './http/slow-body-guard.js';
import { addErrorsOnEveryRoute } from './http/openapi-responses.js';
import { createRegistrar, RouteTable } from './http/routes.js';
import { installHostOriginGuard } from './http/host-origin-guard.js';
import type { Principal } from './http/principal.js';
import { discoverWorkspacePackages, importPackage, resolveProjectPackages, type DiscoveredPackage } from './plugin/discovery.js';
import { orderPlugins } from './plugin/order.js';
import { prebuiltStatus } from './plugin/prebuilt.js';
import type { BasinPlugin, CompanionStatus, HealthContributor, PluginContext, StatusContributor, UiPage } from './plugin/types.js';
import { coreServices, type ServiceRef } from './plugin/refs.js';
import { Warehouse } from './store/warehouse.js';
import type { WarehouseClient } from './warehouse/interface.js';
import { createWarehouseClient } from './warehouse/open.js';
import { acquireProjectLock, type ProjectLock } from './project-lock.js';
import { openSqlite, type SqliteDb } from './store/sqlite.js';
import type { Logger } from './logger.js';

const require = createRequire(import.meta.url);
export const BASIN_VERSION: string = require('../package.json').version;

export interface BootOptions {
  projectDir: string;
  /** the plugin set; default: every discovered workspace plugin plus those named in project.yml */
  plugins?: BasinPlugin[];
  /** added to the discovered set (tests add a test plugin this way) */
  extraPlugins?: BasinPlugin[];
  clock?: Clock;
  logger?: boolean | { level: string };
  /** services to register after plugins, overriding theirs (tests) */
  overrides?: Record<string, Resolver<unknown>>;
  /** where ctx.notice goes (the CLI prints to its stdout); default: the log */
  notice?: (message: string) => void;
  /** set by the CLI's boot (ctx.launchedByCli) */
  launchedByCli?: boolean;
  /**
   * For a command that serves no request (`basin sync` from the shell): the plugins' routes (and the
   * OpenAPI document) are checked at registration but added to fastify only when it boots (an inject, a
   * listen), and boot does not wait for fastify to be ready. Everything else (services, event
   * listeners, hooks) registers as always.
   */
  deferRoutes?: boolean;
  /**
   * When the serving copy is published: after writes (`after_writes`, the default: a server's readers
   * see each load), or by the first reader that needs it (`on_read`: a command that serves nobody,
   * like `basin sync` from the shell; the next server start or query publishes it).
   */
  servingCopy?: 'after_writes' | 'on_read';
  /** the command will use the warehouse at once (`basin sync`): start opening it during the boot */
  openWarehouse?: boolean;
  /** minimum request-body rate before 408 (tests shorten the window) */
  bodyRate?: BodyRateOptions;
  /**
   * where this process keeps its own state (lock, the DuckDB load engine, state.db) instead of the
   * project directory: a sync worker (`basin worker`) beside the server that holds the project's own
   */
  localDir?: string;
}

/** core's own config files: `.env` (read by config.env()) */
const coreFiles: ConfigFileSpec[] = [{ id: 'env', path: '.env', format: 'env', sensitive: true, schema: Type.Record(Type.String(), Type.String()) }];

export interface BasinApp {
  readonly config: BasinConfig;
  readonly container: AwilixContainer;
  readonly events: EventBus;
  readonly http: FastifyInstance;
  readonly routeTable: RouteTable;
  readonly permissions: PermissionRegistry;
  /** the embedded DuckDB engine (DuckDB-only features); see warehouseClient */
  readonly warehouse: Warehouse;
  /** the project's warehouse backend (`warehouse.type`, DuckDB by default over `warehouse`) */
  readonly warehouseClient: WarehouseClient;
  readonly stateDb: SqliteDb;
  readonly clock: Clock;
  readonly plugins: BasinPlugin[];
  readonly pages: UiPage[];
  /** a service by its ref (tests and CLI commands); throws when none is provided */
  resolve<T>(ref: ServiceRef<T>): T;
  tryResolve<T>(ref: ServiceRef<T>): T | undefined;
  health(): Promise<Record<string, unknown>>;
  companions(): Promise<CompanionStatus[]>;
  /** runs onStart hooks (watchers, schedulers); `listen` calls it */
  start(): Promise<void>;
  listen(opts: { host: string; port: number }): Promise<string>;
  close(): Promise<void>;
}

const cachedDiscovery: { plugins?: BasinPlugin[] } = {};

/** Every plugin package of the install (cached per process), plus those named in the project's config. */
export async function loadPlugins(projectDir?: string): Promise<BasinPlugin[]> {
  if (!cachedDiscovery.plugins) {
    // an opt-in plugin (the examples) loads only when a project lists it under `plugins:`
    const pkgs = discoverWorkspacePackages().filter((p) => p.kind === 'plugin' && p.meta.optIn !== true);
    cachedDiscovery.plugins = await Promise.all(pkgs.map((p) => importPlugin(p)));
    for (const [i, pkg] of pkgs.entries()) if (isBundled(pkg)) recordBundledPermissions(cachedDiscovery.plugins[i]!.permissions ?? []);
  }
  const out = [...cachedDiscovery.plugins];
  if (projectDir) {
    for (const pkg of resolveProjectPackages(projectDir, projectPluginNames(projectDir)).filter((p) => p.kind === 'plugin')) {
      const p = await importPlugin(pkg);
      if (!out.some((o) => o.name === p.name)) out.push(p);
    }
  }
  return out;
}

/** a plugin shipped with Basin: a package of the install's plugins/ folder */
function isBundled(pkg: DiscoveredPackage): boolean {
  return path.basename(path.dirname(pkg.dir)) === 'plugins';
}

async function importPlugin(pkg: DiscoveredPackage): Promise<BasinPlugin> {
  const p = await importPackage<BasinPlugin>(pkg);
  if (!p || typeof p.name !== 'string') throw new Error(`Plugin package ${pkg.name} must default-export definePlugin({ name, ... }).`);
  return p;
}

const DISABLED = (perms: PermissionRegistry): Principal => ({
  kind: 'auth_disabled',
  userId: null,
  email: null,
  role: 'admin',
  permissions: new Set(perms.forRole('admin')),
});

export async function createApp(opts: BootOptions): Promise<BasinApp> {
  // one process per project: a second server (or a writing CLI command) refuses to open it
  const lock = acquireProjectLock(path.resolve(opts.localDir ?? opts.projectDir));
  try {
    return await assembleApp(opts, lock);
  } catch (e) {
    lock.release();
    throw e;
  }
}

/** BASIN_TRACE_STARTUP=1 prints where start-up time goes (ms since the process started, and CPU ms) to stderr */
function startupMark(what: string): void {
  if (!process.env.BASIN_TRACE_STARTUP) return;
  // CPU time (user + sys, all threads) beside the wall time: on a busy machine it moves far less
  const cpu = process.cpuUsage();
  process.stderr.write(`[startup] ${performance.now().toFixed(0).padStart(6)} ms (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(4)} ms) ${what}\n`);
}

async function assembleApp(opts: BootOptions, lock: ProjectLock): Promise<BasinApp> {
  startupMark(`plugins imported (${prebuiltStatus()}), assembling the app`);
  const projectDir = path.resolve(opts.projectDir);
  const plugins = orderPlugins([...(opts.plugins ?? (await loadPlugins(projectDir))), ...(opts.extraPlugins ?? [])]);
  for (const p of plugins) await p.prepare?.(projectDir);

  const loaded = loadConfig({
    projectDir,
    files: [...coreFiles, ...plugins.flatMap((p) => p.configFiles ?? [])],
    sections: plugins.flatMap((p) => (p.configSections ?? []).map((s) => ({ ...s, owner: p.name }))),
  });
  if (loaded.issues.some((i) => i.severity === 'error')) throw new ConfigLoadError(loaded.issues);
  const config = new BasinConfig(projectDir, loaded.project, loaded.files, loaded.issues);

  const permissions = new PermissionRegistry();
  for (const p of plugins) for (const perm of p.permissions ?? []) permissions.add(perm, p.name);

  const clock = opts.clock ?? systemClock;
  const routeTable = new RouteTable();
  // fastify and its plugins load with the first app a process builds, not with the CLI's command table
  const { buildServer, registerDocs } = await import('./http/server.js');
  startupMark('config loaded');
  const http = await buildServer({ logger: opts.logger ?? false, routeTable, version: BASIN_VERSION, title: 'Basin', bodyRate: opts.bodyRate, withoutDocs: opts.deferRoutes });
  const log: Logger = http.log;
  const events = new EventBus((event, err) => log.error({ err, event }, 'event listener failed'), () => clock.now());

  const warehouse = new Warehouse({
    dbPath: opts.localDir ? path.join(opts.localDir, 'warehouse.db') : config.resolve(config.platform.db_path),
    servingPath: opts.localDir ? path.join(opts.localDir, 'serving.db') : config.resolve(config.platform.data_dir, 'serving.db'),
    autoPublish: true,
    publishOnRead: opts.servingCopy === 'on_read',
    onPublishError: (err) => log.error({ err }, 'publishing the serving copy failed; readers keep the previous copy'),
  });
  let stateDb: SqliteDb;
  let warehouseClient: WarehouseClient;
  try {
    // DuckDB (the addon ~33 MB, an open instance ~17 MB more) opens on first use (issue 19), unless the
    // serving copy is behind the warehouse file: then now, so readers get a fresh copy as before
    if (warehouse.needsPublishAtOpen) await warehouse.open();
    // a command that loads data opens DuckDB while the plugins register: the file's open runs on the
    // thread pool beside them (a failure surfaces at the first read or write, which opens again)
    else if (opts.openWarehouse) void warehouse.open().catch(() => undefined);
    // a server backend's client connects lazily: an unreachable server shows in health, not as a failed start
    warehouseClient = await createWarehouseClient(config, warehouse);
    if (warehouseClient.capabilities.type !== 'duckdb') await warehouseClient.open();
    stateDb = openSqlite(opts.localDir ? path.join(opts.localDir, 'state.db') : config.resolve('.basin', 'state.db'));
    startupMark('fastify built, state.db open');
  } catch (e) {
    await warehouse.close().catch(() => {});
    throw e;
  }

  const { asValue, createContainer, InjectionMode } = awilix();
  const container = createContainer({ injectionMode: InjectionMode.PROXY, strict: true });
  const resolve = <T>(ref: { id: string; T?: T }): T => container.resolve<T>(ref.id);
  const tryResolve = <T>(ref: { id: string; T?: T }): T | undefined => (container.hasRegistration(ref.id) ? container.resolve<T>(ref.id) : undefined);
  const provide = <T>(ref: { id: string; T?: T }, impl: T) => container.register(ref.id, asValue(impl));
  container.register({ config: asValue(config), events: asValue(events), clock: asValue(clock), log: asValue(log), http: asValue(http) });
  const pages: UiPage[] = [];
  provide(coreServices.warehouse, warehouse);
  provide(coreServices.warehouseClient, warehouseClient);
  provide(coreServices.stateDb, stateDb);
  provide(coreServices.routeTable, routeTable);
  provide(coreServices.permissions, permissions);
  provide(coreServices.pages, pages);

  // authentication: the auth plugin provides `authenticator`; without one, Basin runs auth-disabled (loopback only)
  http.addHook('onRequest', async (req) => {
    const auth = tryResolve(coreServices.authenticator);
    req.principal = auth ? await auth.authenticate(req) : DISABLED(permissions);
  });
  // Host (DNS rebinding) and, with auth disabled, Origin for writes: after authentication, before plugins' hooks
  let listenHost: string | null = null;
  installHostOriginGuard(http, { listenHost: () => listenHost, isLoopback });

  const healthContributors: HealthContributor[] = [];
  const statusContributors: StatusContributor[] = [];
  const starters: Array<() => Promise<void> | void> = [];
  const afterRegister: Array<() => Promise<void> | void> = [];
  const deferredRoutes: Array<() => void> | undefined = opts.deferRoutes ? [] : undefined;
  let closed = false;
  const stoppers: Array<() => Promise<void> | void> = [];

  for (const plugin of plugins) {
    const ctx: PluginContext = {
      name: plugin.name,
      container,
      config,
      events,
      clock,
      log: log.child({ plugin: plugin.name }),
      http,
      routes: createRegistrar(http, plugin.name, (p) => permissions.has(p), deferredRoutes),
      provide,
      resolve,
      tryResolve,
      provideExtensionPoint: provide,
      extensionPoint: tryResolve,
      page: (p) => pages.push(p),
      errorsOnEveryRoute: (errs, methods) => addErrorsOnEveryRoute(http, errs, methods),
      health: (c) => healthContributors.push(c),
      status: (c) => statusContributors.push(c),
      onStart: (fn) => starters.push(fn),
      afterRegister: (fn) => afterRegister.push(fn),
      onStop: (fn) => stoppers.unshift(fn),
      notice: (m) => (opts.notice ? opts.notice(m) : log.info({ plugin: plugin.name }, m)),
      launchedByCli: opts.launchedByCli === true,
    };
    try {
      await plugin.register?.(ctx);
      startupMark(`register ${plugin.name}`);
    } catch (e) {
      throw new Error(`Plugin "${plugin.name}" failed to register: ${(e as Error).message}`, { cause: e });
    }
  }
  for (const [name, r] of Object.entries(opts.overrides ?? {})) container.register(name, r);
  for (const fn of afterRegister) await fn();
  startupMark('after-register hooks');
  if (deferredRoutes) {
    // a fastify plugin sharing the root's context (skip-override, as fastify-plugin marks it): fastify
    // runs it when it boots, which close() also does, so it adds nothing once the app is closing
    const addRoutes = async (root: typeof http) => {
      if (closed) return;
      await registerDocs(root, { title: 'Basin', version: BASIN_VERSION });
      for (const add of deferredRoutes.splice(0)) add();
    };
    Object.assign(addRoutes, { [Symbol.for('skip-override')]: true });
    void http.register(addRoutes);
    startupMark(`${deferredRoutes.length} routes deferred`);
  } else {
    await http.ready();
    startupMark('fastify ready');
  }

  let started = false;
  const app: BasinApp = {
    config,
    container,
    events,
    http,
    routeTable,
    permissions,
    warehouse,
    warehouseClient,
    stateDb,
    clock,
    plugins,
    pages,
    resolve,
    tryResolve,
    async health() {
      const parts = await Promise.all(healthContributors.map(async (c) => c()));
      return Object.assign({}, ...parts);
    },
    async companions() {
      return Promise.all(statusContributors.map(async (c) => c()));
    },
    async start() {
      if (started) return;
      started = true;
      for (const fn of starters) await fn();
      startupMark('onStart hooks');
    },
    async listen({ host, port }) {
      const authOff = !tryResolve(coreServices.authenticator) || config.section<{ enabled?: boolean }>('auth')?.enabled === false;
      if (authOff && !isLoopback(host)) {
        throw new Error(`Authentication is disabled, so Basin may only listen on loopback (127.0.0.1 or ::1), not ${host}. Enable auth ("basin auth enable") or use --host 127.0.0.1.`);
      }
      await app.start();
      listenHost = host;
      const url = await http.listen({ host, port });
      startupMark('listening');
      return url;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const fn of stoppers) {
        try {
          await fn();
        } catch (err) {
          log.error({ err }, 'plugin stop failed');
        }
      }
      await http.close();
      await events.idle();
      if (warehouseClient.capabilities.type !== 'duckdb') await warehouseClient.close().catch((err) => log.error({ err }, 'closing the warehouse failed'));
      await warehouse.close();
      stateDb.close();
      await container.dispose();
      lock.release();
    },
  };
  provide(coreServices.app, app);
  return app;
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || host.startsWith('127.');
}

/**
 * The project's configuration as a server would load it, without booting anything: no warehouse is
 * opened, so a CLI command that only needs config works while a server holds the warehouse. Throws
 * ConfigLoadError with every issue when the configuration is invalid.
 */
export async function requireProjectConfig(projectDir: string, plugins?: BasinPlugin[]): Promise<BasinConfig> {
  const dir = path.resolve(projectDir);
  const all = orderPlugins(plugins ?? (await loadPlugins(dir)));
  for (const p of all) await p.prepare?.(dir);
  const loaded = loadConfig({
    projectDir: dir,
    files: [...coreFiles, ...all.flatMap((p) => p.configFiles ?? [])],
    sections: all.flatMap((p) => (p.configSections ?? []).map((s) => ({ ...s, owner: p.name }))),
  });
  if (loaded.issues.some((i) => i.severity === 'error')) throw new ConfigLoadError(loaded.issues);
  return new BasinConfig(dir, loaded.project, loaded.files, loaded.issues);
}

/** Validates a project's configuration against every installed plugin's schemas, without booting. */
export async function validateProject(projectDir: string, plugins?: BasinPlugin[]) {
  const all = orderPlugins(plugins ?? (await loadPlugins(projectDir)));
  for (const p of all) await p.prepare?.(projectDir);
  const { files, issues } = loadConfig({
    projectDir,
    files: [...coreFiles, ...all.flatMap((p) => p.configFiles ?? [])],
    sections: all.flatMap((p) => (p.configSections ?? []).map((s) => ({ ...s, owner: p.name }))),
  });
  // the asynchronous checks (the same the runtime applies before a live reload) of files that passed the schema
  for (const f of files.values()) {
    if (!f.spec.check || !f.resolvedPath || issues.some((i) => i.file === f.resolvedPath && i.severity === 'error')) continue;
    for (const pr of await f.spec.check(f.value)) issues.push({ file: f.resolvedPath, path: pr.path, message: pr.message, severity: 'error' });
  }
  return issues;
}

/** Loads and validates a project's configuration without booting it (no warehouse, no services): `basin doctor`, `basin info`. */
export async function loadProjectConfig(projectDir: string, plugins?: BasinPlugin[]): Promise<{ config: BasinConfig | null; issues: ReturnType<typeof loadConfig>['issues'] }> {
  const all = orderPlugins(plugins ?? (await loadPlugins(projectDir)));
  for (const p of all) await p.prepare?.(projectDir);
  const loaded = loadConfig({
    projectDir,
    files: [...coreFiles, ...all.flatMap((p) => p.configFiles ?? [])],
    sections: all.flatMap((p) => (p.configSections ?? []).map((s) => ({ ...s, owner: p.name }))),
  });
  const config = loaded.issues.some((i) => i.severity === 'error') ? null : new BasinConfig(path.resolve(projectDir), loaded.project, loaded.files, loaded.issues);
  return { config, issues: loaded.issues };
}
