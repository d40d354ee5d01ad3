// `basin warehouse migrate --to <type>`: copies the raw tables and Basin's bookkeeping (commit markers,
// cursor state) of the project's DuckDB warehouse into another backend through the warehouse
// interface (unload to a staged file, bulk load, one atomic swap), checks the row counts, then
// switches project.yml. Any backend installed in the registry can be a target.
import fs from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import {
  createWarehouseClient,
  warehouseBackend,
  warehouseBackendContext,
  warehouseSettingsSchema,
  warehouseTypes,
  WAREHOUSE_META_SCHEMA,
  WAREHOUSE_STAGING_PREFIX,
  type BasinConfig,
  type BulkFormat,
  type ResourceSwap,
  type WarehouseClient,
} from '@basin/core';
import { switchWarehouseSection } from './project-file.js';

export class MigrationError extends Error {}

export interface MigratedTable {
  schema: string;
  table: string;
  rows: number;
}

export interface MigrationReport {
  from: string;
  to: string;
  format: BulkFormat;
  tables: MigratedTable[];
  /** bookkeeping rows copied: commit markers and the cursor state of each source */
  commits: number;
  cursors: number;
  /** project.yml now names the new backend */
  switched: boolean;
}

/** raw schemas hold what syncs loaded (dbt models are rebuilt by dbt on the new backend) */
export const isRawSchema = (schema: string): boolean => schema === 'raw' || schema.startsWith('raw_');

/** Basin's bookkeeping tables, merged by their keys so a re-run migrates again without duplicates */
const META_TABLES: Array<{ table: string; key: string }> = [
  { table: 'sync_commits', key: 'sync_id' },
  { table: 'cursor_state', key: 'source' },
];

/** checks a target section against the backend's manifest settings; returns it with defaults applied */
export function targetSection(to: string, given: Record<string, unknown>): Record<string, unknown> {
  const schema = warehouseSettingsSchema(to);
  if (!schema) throw new MigrationError(`No warehouse backend of type "${to}" is installed; installed: ${warehouseTypes().join(', ')}.`);
  const section = { ...given, type: to };
  const problems = [...Value.Errors(schema, Value.Default(schema, structuredClone(section)))].map((e) => `${e.path || '/'}: ${e.message}`);
  if (problems.length) throw new MigrationError(`The ${to} settings are not valid: ${problems.join('; ')}.`);
  return section;
}

export async function migrateWarehouse(o: {
  config: BasinConfig;
  to: string;
  /** the target's `warehouse` section (without defaults: what project.yml will say) */
  section: Record<string, unknown>;
  progress: (line: string) => void;
  /** leave project.yml as it is (copy only) */
  keepProject?: boolean;
}): Promise<MigrationReport> {
  const section = targetSection(o.to, o.section);
  const current = String(o.config.section<Record<string, unknown> | undefined>('warehouse')?.type ?? 'duckdb');
  if (current !== 'duckdb') throw new MigrationError(`This project's warehouse is already ${current}; migrate copies from the DuckDB warehouse (platform.db_path).`);
  if (o.to === 'duckdb') throw new MigrationError('The project already uses the DuckDB warehouse; name a server backend with --to.');
  const source = await createWarehouseClient(o.config, undefined, { type: 'duckdb' });
  let target: WarehouseClient | undefined;
  const work = path.join(o.config.resolve(o.config.platform.data_dir), `.migrate-${process.pid}`);
  try {
    await source.open();
    target = await createWarehouseClient(o.config, undefined, section);
    await target.open();
    const health = await target.health();
    if (!health.ok) throw new MigrationError(`The ${o.to} warehouse at ${health.location} is not reachable: ${health.message}`);
    o.progress(`Target: ${health.version ?? o.to} at ${health.location}`);
    const backend = await warehouseBackend(o.to);
    await backend.provision?.(target, warehouseBackendContext(o.config, section));
    const format = target.capabilities.bulkFormats.find((f) => source.capabilities.unloadFormats.includes(f));
    if (!format) throw new MigrationError(`No file format both warehouses share (source writes ${source.capabilities.unloadFormats.join(', ')}, ${o.to} loads ${target.capabilities.bulkFormats.join(', ')}).`);

    fs.mkdirSync(work, { recursive: true });
    const tables = (await source.listTables()).filter((t) => t.kind === 'table' && isRawSchema(t.schema));
    const swaps: ResourceSwap[] = [];
    const expected = new Map<string, number>();
    const copy = async (schema: string, table: string): Promise<{ staging: string; rows: number } | null> => {
      const columns = await source.describeTable(schema, table);
      if (!columns) return null;
      const file = { path: path.join(work, `${swaps.length}.${format}`), format };
      const { rows } = await source.unload(schema, table, file);
      const staging = `${WAREHOUSE_STAGING_PREFIX}${table}__migrate`;
      const staged = await target!.loadStaged({ schema, staging, file, columns });
      fs.rmSync(file.path, { force: true });
      if (staged.rows !== rows) throw new MigrationError(`${schema}.${table}: ${rows} rows written but ${staged.rows} loaded; nothing was switched.`);
      return { staging, rows };
    };
    for (const [i, t] of tables.entries()) {
      const r = await copy(t.schema, t.name);
      if (!r) continue;
      swaps.push({ schema: t.schema, table: t.name, staging: r.staging, disposition: 'replace' });
      expected.set(`${t.schema}.${t.name}`, r.rows);
      o.progress(`[${i + 1}/${tables.length}] ${t.schema}.${t.name}: ${r.rows} rows`);
    }
    let commits = 0;
    let cursors = 0;
    for (const m of META_TABLES) {
      const r = await copy(WAREHOUSE_META_SCHEMA, m.table);
      if (!r) continue;
      swaps.push({ schema: WAREHOUSE_META_SCHEMA, table: m.table, staging: r.staging, disposition: 'merge', primaryKey: [m.key] });
      if (m.table === 'sync_commits') commits = r.rows;
      else cursors = r.rows;
    }
    // one transaction: every table with the bookkeeping, or nothing
    const swapped = await target.swap({ source: '_basin_migrate', syncId: `migrate-${new Date().toISOString()}`, resources: swaps });
    for (const s of swapped) {
      const want = expected.get(`${s.schema}.${s.table}`);
      if (want !== undefined && want !== s.rows) throw new MigrationError(`${s.schema}.${s.table} has ${s.rows} rows in ${o.to}, expected ${want}; project.yml was not switched.`);
    }
    if (!o.keepProject) switchWarehouseSection(o.config.projectDir, { ...o.section, type: o.to });
    return {
      from: 'duckdb',
      to: o.to,
      format,
      tables: swapped.filter((s) => s.schema !== WAREHOUSE_META_SCHEMA).map((s) => ({ schema: s.schema, table: s.table, rows: s.rows })),
      commits,
      cursors,
      switched: !o.keepProject,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    await target?.close().catch(() => undefined);
    await source.close().catch(() => undefined);
  }
}
