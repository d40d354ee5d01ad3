import type { Warehouse } from '@basin/core';
import type { ColumnSchema } from './drift.js';

/** Basin's own bookkeeping columns (load ids, timestamps) are not part of a source's schema. */
export const isMetadataColumn = (name: string): boolean => name.startsWith('_basin_');

/** Current columns of a warehouse table in ordinal order, without Basin metadata columns; null when the table is gone. */
export async function readTableSchema(warehouse: Warehouse, schema: string, table: string): Promise<ColumnSchema[] | null> {
  const rows = await warehouse.query<{ column_name: string; data_type: string }>(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = $schema AND table_name = $table ORDER BY ordinal_position',
    { schema, table },
  );
  if (!rows.length) return null;
  return rows.filter((r) => !isMetadataColumn(r.column_name)).map((r) => ({ name: r.column_name, type: r.data_type }));
}
