import type { Warehouse } from '@basin/core';

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

const SYSTEM_SCHEMAS = ['information_schema', 'pg_catalog'];

/** Every user table and view of the warehouse with its columns, in two metadata queries (no data scan). */
export async function listWarehouseTables(warehouse: Warehouse): Promise<WarehouseTable[]> {
  const [tables, cols, sizes] = await Promise.all([
    warehouse.query<{ table_schema: string; table_name: string; table_type: string }>(
      `SELECT table_schema, table_name, table_type FROM information_schema.tables
       WHERE table_catalog = current_database() AND table_schema NOT IN ('information_schema', 'pg_catalog') ORDER BY table_schema, table_name`,
    ),
    warehouse.query<{ table_schema: string; table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      `SELECT table_schema, table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_catalog = current_database() ORDER BY table_schema, table_name, ordinal_position`,
    ),
    warehouse.query<{ schema_name: string; table_name: string; estimated_size: string | number | null }>(
      'SELECT schema_name, table_name, estimated_size FROM duckdb_tables() WHERE database_name = current_database()',
    ),
  ]);
  const key = (s: string, t: string) => `${s}\u0000${t}`;
  const byTable = new Map<string, WarehouseColumn[]>();
  for (const c of cols) {
    if (SYSTEM_SCHEMAS.includes(c.table_schema)) continue;
    const k = key(c.table_schema, c.table_name);
    let list = byTable.get(k);
    if (!list) byTable.set(k, (list = []));
    list.push({ name: c.column_name, type: c.data_type, nullable: c.is_nullable === 'YES' });
  }
  const size = new Map(sizes.map((s) => [key(s.schema_name, s.table_name), s.estimated_size === null ? null : Number(s.estimated_size)]));
  return tables.map((t) => ({
    schema: t.table_schema,
    name: t.table_name,
    kind: t.table_type === 'VIEW' ? 'view' : 'table',
    estimated_rows: size.get(key(t.table_schema, t.table_name)) ?? null,
    columns: byTable.get(key(t.table_schema, t.table_name)) ?? [],
  }));
}
