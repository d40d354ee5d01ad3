import type { WarehouseClient } from '@basin/core';
import type { ColumnSchema } from './drift.js';

/** Basin's own bookkeeping columns (load ids, timestamps) are not part of a source's schema. */
export const isMetadataColumn = (name: string): boolean => name.startsWith('_basin_');

/** Current columns of a warehouse table in ordinal order, without Basin metadata columns; null when the table is gone. */
export async function readTableSchema(warehouse: WarehouseClient, schema: string, table: string): Promise<ColumnSchema[] | null> {
  const cols = await warehouse.describeTable(schema, table);
  if (!cols) return null;
  return cols.filter((c) => !isMetadataColumn(c.name)).map((c) => ({ name: c.name, type: c.type }));
}
