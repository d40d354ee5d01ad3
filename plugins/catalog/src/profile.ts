import type { WarehouseClient } from '@basin/core';

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

/** types the aggregate cannot take min/max/distinct of on a server engine (DuckDB orders them all) */
const noOrder = (dialect: string, t: string) => dialect !== 'duckdb' && /^(bool|json|uuid|bytea|xml|point|ARRAY|USER-DEFINED)/i.test(t);

/**
 * Profiles every column of a table in ONE aggregate query (count, non-null count, distinct, min, max
 * per column), read-only through the warehouse interface: DuckDB reads the serving copy (so a running
 * dbt or load does not block it; the warehouse itself when the copy lacks the table), a server engine
 * its read-only user.
 */
export async function profileTable(warehouse: WarehouseClient, schema: string, table: string, now: Date): Promise<TableProfile | null> {
  const meta = await warehouse.describeTable(schema, table);
  if (!meta?.length) return null;
  const cap = warehouse.capabilities;
  const estimated = (await warehouse.listTables(schema)).find((t) => t.name === table)?.estimatedRows ?? 0;
  const approx = Number(estimated) > EXACT_DISTINCT_LIMIT;
  const parts = ['count(*) AS n'];
  meta.forEach((m, i) => {
    const col = cap.quoteIdent(m.name);
    parts.push(`count(${col}) AS nn${i}`);
    if (isNested(m.type) || noOrder(cap.dialect, m.type)) parts.push(`NULL AS d${i}`, `NULL AS mn${i}`, `NULL AS mx${i}`);
    else parts.push(approx ? `${cap.approxDistinct(col)} AS d${i}` : `count(DISTINCT ${col}) AS d${i}`, `CAST(min(${col}) AS VARCHAR) AS mn${i}`, `CAST(max(${col}) AS VARCHAR) AS mx${i}`);
  });
  const sql = `SELECT ${parts.join(', ')} FROM ${cap.qualify(schema, table)}`;
  let readFrom: TableProfile['read_from'] = cap.servingCopy ? 'serving_copy' : 'warehouse';
  let result;
  try {
    result = await warehouse.query(sql, { timeoutMs: 300_000, maxRows: 1 });
  } catch (e) {
    if (!cap.servingCopy) throw e;
    // the serving copy being replaced, unreadable, or without the table yet: the warehouse itself
    readFrom = 'warehouse';
    result = await warehouse.query(sql, { timeoutMs: 300_000, maxRows: 1, internal: true });
  }
  const row = Object.fromEntries(result.columns.map((c, i) => [c.name, result.rows[0]![i]])) as Record<string, string | number | null>;
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
        name: m.name,
        type: m.type,
        nullable: m.nullable,
        null_count: n - nonNull,
        null_percentage: n ? Math.round(((n - nonNull) / n) * 10000) / 100 : 0,
        distinct_count: row[`d${i}`] === null || row[`d${i}`] === undefined ? null : Number(row[`d${i}`]),
        distinct_is_approximate: approx && row[`d${i}`] !== null,
        min: (row[`mn${i}`] as string | null) ?? null,
        max: (row[`mx${i}`] as string | null) ?? null,
      };
    }),
  };
}
