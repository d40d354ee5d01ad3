// Column types between DuckDB (which writes the staged Parquet) and Trino (Hive staging tables over
// that Parquet, Iceberg tables in the warehouse). DuckDB casts what Parquet, Hive or Iceberg cannot
// carry as such (unsigned and 128-bit integers, times, intervals, nested values) before writing.
import { toPortableType, type PortableType } from '@basin/core';

/** DuckDB's expression that makes `col` (of DuckDB type `duckType`) fit the Trino type returned. */
export function stagedColumn(col: string, duckType: string): { select: string; trino: string } {
  const p: PortableType = toPortableType(duckType);
  switch (p) {
    case 'boolean':
      return { select: col, trino: 'boolean' };
    case 'smallint':
      return { select: `CAST(${col} AS SMALLINT)`, trino: 'smallint' };
    case 'integer':
      return { select: `CAST(${col} AS INTEGER)`, trino: 'integer' };
    case 'bigint':
      return { select: `CAST(${col} AS BIGINT)`, trino: 'bigint' };
    case 'hugeint':
      return { select: `CAST(${col} AS DECIMAL(38,0))`, trino: 'decimal(38,0)' };
    case 'real':
      return { select: col, trino: 'real' };
    case 'double':
      return { select: col, trino: 'double' };
    case 'date':
      return { select: col, trino: 'date' };
    case 'timestamp':
      return { select: `CAST(${col} AS TIMESTAMP)`, trino: 'timestamp(6)' };
    case 'timestamptz':
      // Parquet holds the UTC instant; the Iceberg column is `timestamp(6) with time zone` (finalColumn)
      return { select: `CAST(timezone('UTC', ${col}) AS TIMESTAMP)`, trino: 'timestamp(6)' };
    case 'blob':
      return { select: col, trino: 'varbinary' };
    case 'json':
      return { select: `CAST(to_json(${col}) AS VARCHAR)`, trino: 'varchar' };
    case 'time':
    case 'interval':
    case 'uuid':
    case 'text':
      return { select: `CAST(${col} AS VARCHAR)`, trino: 'varchar' };
    default: {
      const dec = /^decimal\((\d+),(\d+)\)$/.exec(p);
      if (dec) return { select: `CAST(${col} AS DECIMAL(${dec[1]},${dec[2]}))`, trino: `decimal(${dec[1]},${dec[2]})` };
      return { select: `CAST(${col} AS VARCHAR)`, trino: 'varchar' };
    }
  }
}

/** the Iceberg column type of a staged column (only instants differ from the staging type) */
export function finalColumn(duckType: string, staged: string): string {
  return toPortableType(duckType) === 'timestamptz' ? 'timestamp(6) with time zone' : staged;
}

/** Trino's expression reading a staged column into its Iceberg type */
export function fromStaging(col: string, duckType: string): string {
  return toPortableType(duckType) === 'timestamptz' ? `with_timezone(${col}, 'UTC')` : col;
}

/** a query value as JSON-safe data: Trino's JSON protocol already sends decimals and times as strings */
export function jsonSafe(v: unknown): unknown {
  if (typeof v === 'number' && !Number.isSafeInteger(v) && Number.isInteger(v)) return String(v);
  return v;
}
