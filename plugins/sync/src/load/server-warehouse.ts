import fs from 'node:fs';
import path from 'node:path';
import type { WarehouseClient } from '@basin/core';
import { STAGING_PREFIX } from './types.js';

/**
 * With a server warehouse (PostgreSQL, Trino) the embedded DuckDB stays the load engine: sources are
 * staged, checked and committed there as always (guards, widening, quarantine), then every table the
 * sync touched goes to the server as a whole through the warehouse interface (DuckDB writes a file in
 * a format the server bulk-loads; one swap replaces them with the cursor state). A failed hand-over
 * leaves the server as it was; the next sync sends the tables again, so the server converges.
 */
export async function shipToServerWarehouse(
  local: WarehouseClient,
  server: WarehouseClient,
  o: { schema: string; source: string; syncId: string; tables: string[]; cursor: unknown; tmpDir: string },
): Promise<void> {
  const format = server.capabilities.bulkFormats.find((f) => local.capabilities.unloadFormats.includes(f));
  if (!format) throw new Error(`The ${server.capabilities.type} warehouse loads no format DuckDB writes (${server.capabilities.bulkFormats.join(', ')}).`);
  fs.mkdirSync(o.tmpDir, { recursive: true });
  const resources = [];
  try {
    for (const table of o.tables) {
      const columns = await local.describeTable(o.schema, table);
      if (!columns) continue;
      const file = { path: path.join(o.tmpDir, `${resources.length}.${format}`), format };
      await local.unload(o.schema, table, file);
      const staging = `${STAGING_PREFIX}${table}__${o.syncId}`;
      await server.loadStaged({ schema: o.schema, staging, file, columns });
      fs.rmSync(file.path, { force: true });
      resources.push({ schema: o.schema, table, staging, disposition: 'replace' as const });
    }
    await server.swap({ source: o.source, syncId: o.syncId, resources, cursor: o.cursor });
  } catch (e) {
    await server.dropStaleStaging().catch(() => undefined);
    throw new Error(`The sync committed locally but the ${server.capabilities.type} warehouse did not take it: ${(e as Error).message}. The next sync sends the tables again.`, { cause: e });
  } finally {
    fs.rmSync(o.tmpDir, { recursive: true, force: true });
  }
}
