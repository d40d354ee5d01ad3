import type { Authenticator } from '../http/principal.js';
import type { RouteTable } from '../http/routes.js';
import type { PermissionRegistry } from '../rbac.js';
import type { Warehouse } from '../store/warehouse.js';
import type { WarehouseClient } from '../warehouse/interface.js';
import type { SqliteDb } from '../store/sqlite.js';
import type { BasinApp } from '../app.js';
import type { UiPage } from './types.js';

/**
 * A typed handle on a service one plugin provides and others resolve (in the spirit of Backstage's
 * createServiceRef). The id is the registration name; the type travels with the ref, so a consumer
 * never names a type the provider did not promise.
 */
export interface ServiceRef<T> {
  readonly kind: 'service';
  readonly id: string;
  /** phantom: carries T for the type checker only */
  readonly T?: T;
}

/**
 * A typed point where other plugins plug behaviour into the one that owns it (e.g. sync's post-load
 * hooks), like Backstage's createExtensionPoint. The owner registers the implementation; extenders
 * get it, or undefined when the owner is not installed.
 */
export interface ExtensionPoint<T> {
  readonly kind: 'extension';
  readonly id: string;
  readonly T?: T;
}

export function createServiceRef<T>(opts: { id: string }): ServiceRef<T> {
  return { kind: 'service', id: opts.id };
}

export function createExtensionPoint<T>(opts: { id: string }): ExtensionPoint<T> {
  return { kind: 'extension', id: `extension:${opts.id}` };
}

/** The services core itself provides to every plugin. */
export const coreServices = {
  /**
   * The embedded DuckDB engine of `platform.db_path` (write queue, dbt hand-off, serving copy). Only
   * for DuckDB-only features (check `warehouseClient.capabilities`); everything else goes through
   * `warehouseClient`, which works on every backend.
   */
  warehouse: createServiceRef<Warehouse>({ id: 'warehouse' }),
  /** the project's warehouse backend (`warehouse.type`): loads, swaps, reads, catalog, dbt target, health */
  warehouseClient: createServiceRef<WarehouseClient>({ id: 'warehouseClient' }),
  stateDb: createServiceRef<SqliteDb>({ id: 'stateDb' }),
  permissions: createServiceRef<PermissionRegistry>({ id: 'permissions' }),
  routeTable: createServiceRef<RouteTable>({ id: 'routeTable' }),
  pages: createServiceRef<UiPage[]>({ id: 'pages' }),
  app: createServiceRef<BasinApp>({ id: 'app' }),
  /** provided by an auth plugin; without one Basin runs auth-disabled on loopback only */
  authenticator: createServiceRef<Authenticator>({ id: 'authenticator' }),
} as const;
