import fs from 'node:fs';
import { ident, Warehouse, type Conn } from '@basin/core';

export interface ColumnProfile {
  name: string;
  type: string;
  nullable: boolean;
  null_count: number;
  null_percentage: number;
  distinct_count: number | null;
  distinct_is_approximate: boolean;
  min: string | null;
  max: string | null;
}
export interface TableProfile {
  schema: string;
  table: string;
  row_count: number;
  profiled_at: string;
  read_from: 'serving_copy' | 'warehouse';
  columns: ColumnProfile[];
}

/** above this many rows distinct counts use approx_count_distinct (HyperLogLog) */
export const EXACT_DISTINCT_LIMIT = 100_000;

/** types whose min/max/distinct are meaningless or unsupported */
const isNested = (t: string) => /^(STRUCT|MAP|UNION)|\[\]$|^LIST/i.test(t);

/**
 * Profiles every column of a table in ONE aggregate query (count, non-null count, distinct, min, max
 * per column). Reads the serving copy when it exists and has the table (so a running dbt or load does
 * not block it), else the warehouse.
 */
export async function profileTable(warehouse: Warehouse, schema: string, table: string, now: Date): Promise<TableProfile | null> {
  const run = async (c: Conn, readFrom: TableProfile['read_from']): Promise<TableProfile | null> => {
    const meta = (
      await c.runAndReadAll(
        `SELECT c.column_name, c.data_type, c.is_nullable, t.estimated_size
         FROM information_schema.columns c LEFT JOIN duckdb_tables() t
           ON t.database_name = c.table_catalog AND t.schema_name = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_catalog = current_database() AND c.table_schema = $schema AND c.table_name = $table ORDER BY c.ordinal_position`,
        { schema, table },
      )
    ).getRowObjectsJson() as Array<{ column_name: string; data_type: string; is_nullable: string; estimated_size: string | number | null }>;
    if (!meta.length) return null;
    const approx = Number(meta[0]!.estimated_size ?? 0) > EXACT_DISTINCT_LIMIT;
    const parts = ['count(*) AS n'];
    meta.forEach((m, i) => {
      const col = ident(m.column_name);
      parts.push(`count(${col}) AS nn${i}`);
      if (isNested(m.data_type)) parts.push(`NULL AS d${i}`, `NULL AS mn${i}`, `NULL AS mx${i}`);
      else parts.push(approx ? `approx_count_distinct(${col}) AS d${i}` : `count(DISTINCT ${col}) AS d${i}`, `CAST(min(${col}) AS VARCHAR) AS mn${i}`, `CAST(max(${col}) AS VARCHAR) AS mx${i}`);
    });
    const row = (await c.runAndReadAll(`SELECT ${parts.join(', ')} FROM ${ident(schema)}.${ident(table)}`)).getRowObjectsJson()[0] as Record<string, string | number | null>;
    const n = Number(row.n);
    return {
      schema,
      table,
      row_count: n,
      profiled_at: now.toISOString(),
      read_from: readFrom,
      columns: meta.map((m, i) => {
        const nonNull = Number(row[`nn${i}`]);
        return {
          name: m.column_name,
          type: m.data_type,
          nullable: m.is_nullable === 'YES',
          null_count: n - nonNull,
          null_percentage: n ? Math.round(((n - nonNull) / n) * 10000) / 100 : 0,
          distinct_count: row[`d${i}`] === null ? null : Number(row[`d${i}`]),
          distinct_is_approximate: approx && row[`d${i}`] !== null,
          min: (row[`mn${i}`] as string | null) ?? null,
          max: (row[`mx${i}`] as string | null) ?? null,
        };
      }),
    };
  };

  if (fs.existsSync(warehouse.servingPath)) {
    try {
      const inst = await Warehouse.openReadOnly(warehouse.servingPath);
      try {
        const c = await inst.connect();
        try {
          const p = await run(c, 'serving_copy');
          if (p) return p;
        } finally {
          c.closeSync();
        }
      } finally {
        inst.closeSync();
      }
    } catch {
      /* serving copy being replaced or unreadable: fall back to the warehouse */
    }
  }
  return warehouse.read((c) => run(c, 'warehouse'));
}
