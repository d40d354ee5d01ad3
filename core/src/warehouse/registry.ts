// The backend registry, keyed by `warehouse.type` in project.yml. DuckDB is built in (the default);
// every other backend is a package with `"basin": {"kind": "warehouse", "type": "<type>", "settings":
// {<JSON Schema with defaults>}}` that default-exports `defineWarehouseBackend({...})`. Settings are
// manifest data, so config validation knows every installed backend without importing its code.
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { discoverWorkspacePackages, importPackage, type DiscoveredPackage } from '../plugin/discovery.js';
import { fromJsonSchema } from '../config/platform-settings.js';
import type { WarehouseClient } from './interface.js';

export interface WarehouseBackendContext {
  projectDir: string;
  /** the `warehouse` section with this backend's defaults applied */
  settings: Record<string, unknown>;
  /** `platform.data_dir` resolved (staging files, local state) */
  dataDir: string;
  /** `platform.db_path` resolved: the DuckDB file (the embedded backend's warehouse; a migration's source) */
  dbPath: string;
  /** reads a secret named by a `*_env` setting (process environment, then the project's .env) */
  env: (name: string) => string | undefined;
}

export interface WarehouseBackend {
  type: string;
  create(ctx: WarehouseBackendContext): WarehouseClient | Promise<WarehouseClient>;
  /**
   * Prepares an empty target for `basin warehouse migrate --to <type>` (the database, the read-only
   * user and its grants); idempotent.
   */
  provision?(client: WarehouseClient, ctx: WarehouseBackendContext): Promise<void>;
  /**
   * `basin warehouse up`: starts a local single-host server of this engine for the project (tests,
   * trying it out); resolves once it accepts connections. Backends that only connect omit it.
   */
  up?(ctx: WarehouseBackendContext, log: (line: string) => void): Promise<LocalWarehouseServer>;
}

/** a local server `basin warehouse up` started; runs until stopped */
export interface LocalWarehouseServer {
  /** where clients connect (no credentials) */
  location: string;
  /** settles when the server exits on its own */
  exited: Promise<void>;
  stop(): Promise<void>;
}

export const defineWarehouseBackend = (b: WarehouseBackend): WarehouseBackend => b;

export const DEFAULT_WAREHOUSE_TYPE = 'duckdb';

interface BackendManifest {
  type: string;
  pkg: DiscoveredPackage | null;
  settings: Record<string, TSchema>;
}

let cached: BackendManifest[] | undefined;

/** Every installed backend: DuckDB (built in, no settings of its own: platform.db_path) and the packages. */
export function warehouseBackendManifests(): BackendManifest[] {
  if (cached) return cached;
  const out: BackendManifest[] = [{ type: DEFAULT_WAREHOUSE_TYPE, pkg: null, settings: {} }];
  for (const pkg of discoverWorkspacePackages().filter((p) => p.kind === 'warehouse')) {
    const type = String(pkg.meta.type ?? '');
    if (!type) throw new Error(`Warehouse package ${pkg.name} must declare "basin": {"type": "<type>"}.`);
    if (out.some((b) => b.type === type)) throw new Error(`Two warehouse packages declare type "${type}".`);
    const raw = (pkg.meta.settings ?? {}) as Record<string, unknown>;
    const settings = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, fromJsonSchema(v, `${pkg.name}: warehouse.${k}`)]));
    out.push({ type, pkg, settings });
  }
  return (cached = out);
}

export const warehouseTypes = (): string[] => warehouseBackendManifests().map((b) => b.type);

/** the settings schema of one backend (all of its keys plus `type`); null for an unknown type */
export function warehouseSettingsSchema(type: string): TSchema | null {
  const m = warehouseBackendManifests().find((b) => b.type === type);
  if (!m) return null;
  return Type.Object({ type: Type.Literal(type), ...m.settings }, { additionalProperties: false });
}

/** the `warehouse` section's settings with the chosen backend's defaults applied */
export function resolveWarehouseSettings(section: Record<string, unknown> | undefined): Record<string, unknown> {
  const value = { type: DEFAULT_WAREHOUSE_TYPE, ...(section ?? {}) };
  const schema = warehouseSettingsSchema(String(value.type));
  return schema ? (Value.Default(schema, structuredClone(value)) as Record<string, unknown>) : value;
}

const loadedBackends = new Map<string, Promise<WarehouseBackend>>();

/** the backend implementing `type` (imports its package on first use) */
export function warehouseBackend(type: string): Promise<WarehouseBackend> {
  let p = loadedBackends.get(type);
  if (!p) {
    p = (async () => {
      if (type === DEFAULT_WAREHOUSE_TYPE) return (await import('./duckdb-backend.js')).duckdbBackend;
      const m = warehouseBackendManifests().find((b) => b.type === type);
      if (!m?.pkg) throw new Error(`No warehouse backend of type "${type}" is installed; installed: ${warehouseTypes().join(', ')}.`);
      const b = await importPackage<WarehouseBackend>(m.pkg);
      if (!b || typeof b.create !== 'function' || b.type !== type) throw new Error(`Warehouse package ${m.pkg.name} must default-export defineWarehouseBackend({ type: "${type}", create }).`);
      return b;
    })();
    loadedBackends.set(type, p);
  }
  return p;
}
