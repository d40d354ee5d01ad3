import type { WarehouseClient } from '@basin/core';

export interface WarehouseColumn {
  name: string;
  type: string;
  nullable: boolean;
}
export interface WarehouseTable {
  schema: string;
  name: string;
  kind: 'table' | 'view';
  estimated_rows: number | null;
  columns: WarehouseColumn[];
}

/** Every user table and view of the warehouse with its columns, from the engine's catalog (no data scan). */
export async function listWarehouseTables(warehouse: WarehouseClient): Promise<WarehouseTable[]> {
  const tables = await warehouse.listTables();
  const columns = await Promise.all(tables.map((t) => warehouse.describeTable(t.schema, t.name)));
  return tables.map((t, i) => ({
    schema: t.schema,
    name: t.name,
    kind: t.kind,
    estimated_rows: t.estimatedRows ?? null,
    columns: columns[i] ?? [],
  }));
}
