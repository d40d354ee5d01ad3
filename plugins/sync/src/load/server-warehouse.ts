import fs from 'node:fs';
import path from 'node:path';
import type { ResourceSwap, WarehouseClient } from '@basin/core';
import { fileId, FILES_TABLE } from './file-id.js';
import { META_SCHEMA, STAGING_PREFIX, type TableChange } from './types.js';

/** a table the sync committed locally, and what the commit did to it */
export interface ShippedTable {
  name: string;
  change: TableChange;
}

/** what went to the server for one table */
export interface ShipReport {
  table: string;
  /** `delta`: only this sync's rows (appended or merged); `full`: the whole table replaced */
  mode: 'delta' | 'full';
  rows: number;
}

/**
 * With a server warehouse (PostgreSQL, Trino) the embedded DuckDB stays the load engine: sources are
 * staged, checked and committed there as always (guards, widening, quarantine), then the server gets
 * what the commit changed through the warehouse interface, in one swap with the cursor state:
 * - an appended or merged table: only this sync's rows (`_basin_sync_id`), appended or merged on the
 *   key on the server (after deleting the rows of files the source forgot), so a 1% increment moves 1%;
 * - a rebuilt table (full refresh, replace resource, new table, retyped column, change-stream
 *   deletes) or a rejects table: the whole table, replacing it;
 * - when the server missed the previous sync of this source (a failed or killed hand-over, a server
 *   restored from elsewhere): every table of the source's schema, whole.
 * A failed hand-over leaves the server as it was; the next sync sees the server did not commit this
 * one and sends whole tables, so the server converges.
 */
export async function shipToServerWarehouse(
  local: WarehouseClient,
  server: WarehouseClient,
  o: { schema: string; source: string; syncId: string; tables: ShippedTable[]; rejects: string[]; cursor: unknown; tmpDir: string; log?: (msg: string) => void },
): Promise<ShipReport[]> {
  const format = server.capabilities.bulkFormats.find((f) => local.capabilities.unloadFormats.includes(f));
  if (!format) throw new Error(`The ${server.capabilities.type} warehouse loads no format DuckDB writes (${server.capabilities.bulkFormats.join(', ')}).`);
  fs.mkdirSync(o.tmpDir, { recursive: true });
  const resources: ResourceSwap[] = [];
  const report: ShipReport[] = [];
  try {
    const inStep = await serverHasPreviousSync(local, server, o.source, o.syncId);
    const all: ShippedTable[] = [...o.tables, ...o.rejects.map((name) => ({ name, change: { kind: 'rebuilt' } as const }))];
    // the names of the files the rows came from go whole beside them (a small table)
    if (all.length && (await local.describeTable(o.schema, FILES_TABLE))) all.push({ name: FILES_TABLE, change: { kind: 'rebuilt' } });
    // out of step: every table of the source goes whole, also those this sync did not touch (the
    // server may lack the rows of the sync it missed in any of them)
    if (!inStep) for (const t of await local.listTables(o.schema)) if (t.kind === 'table' && !all.some((x) => x.name === t.name)) all.push({ name: t.name, change: { kind: 'rebuilt' } });
    for (const t of all) {
      const columns = await local.describeTable(o.schema, t.name);
      if (!columns) continue;
      const delta = t.change.kind !== 'rebuilt' && inStep && columns.some((c) => c.name === '_basin_sync_id') && (await server.describeTable(o.schema, t.name)) !== null;
      const file = { path: path.join(o.tmpDir, `${resources.length}.${format}`), format };
      const { rows } = await local.unload(o.schema, t.name, file, delta ? { column: '_basin_sync_id', equals: o.syncId } : undefined);
      const staging = `${STAGING_PREFIX}${t.name}__${o.syncId}`;
      await server.loadStaged({ schema: o.schema, staging, file, columns });
      fs.rmSync(file.path, { force: true });
      if (delta && t.change.kind !== 'rebuilt') {
        const forget = t.change.forgotFiles.length ? { column: '_basin_file_id', values: t.change.forgotFiles.map(fileId) } : undefined;
        if (t.change.kind === 'merged') resources.push({ schema: o.schema, table: t.name, staging, disposition: 'merge', primaryKey: t.change.primaryKey, forget });
        else resources.push({ schema: o.schema, table: t.name, staging, disposition: 'append', forget });
      } else resources.push({ schema: o.schema, table: t.name, staging, disposition: 'replace' });
      report.push({ table: t.name, mode: delta ? 'delta' : 'full', rows });
    }
    const swapped = await server.swap({ source: o.source, syncId: o.syncId, resources, cursor: o.cursor });
    for (const t of swapped) if (t.viewsDropped?.length) o.log?.(`${o.schema}.${t.table} was rebuilt with other columns; views on it that no longer fit were dropped (the next dbt run builds them again): ${t.viewsDropped.join(', ')}`);
  } catch (e) {
    await server.dropStaleStaging().catch(() => undefined);
    throw new Error(`The sync committed locally but the ${server.capabilities.type} warehouse did not take it: ${(e as Error).message}. The next sync sends the tables again.`, { cause: e });
  } finally {
    fs.rmSync(o.tmpDir, { recursive: true, force: true });
  }
  for (const r of report) o.log?.(`${o.schema}.${r.table}: ${r.mode === 'delta' ? `${r.rows} new or changed rows` : `the whole table (${r.rows} rows)`} sent to the ${server.capabilities.type} warehouse`);
  return report;
}

/**
 * Whether the server committed the source's previous local sync: then it holds what the local tables
 * held before this sync, and this sync's rows are all it lacks. No previous sync: false (whole tables).
 */
async function serverHasPreviousSync(local: WarehouseClient, server: WarehouseClient, source: string, syncId: string): Promise<boolean> {
  const q = local.capabilities;
  const prev = await local.query(
    `SELECT sync_id FROM ${q.qualify(META_SCHEMA, 'sync_commits')} WHERE source = ${q.quoteLiteral(source)} AND sync_id <> ${q.quoteLiteral(syncId)} ORDER BY committed_at DESC LIMIT 1`,
    { timeoutMs: 60_000, maxRows: 1, internal: true },
  );
  const id = prev.rows[0]?.[0];
  if (typeof id !== 'string') return false;
  return (await server.committedSyncs([id])).has(id);
}
