// The few SQL pieces of a monitor that differ between warehouse dialects (issue 22). DuckDB keeps the
// SQL it always had; PostgreSQL and Trino get their own spelling of the same thing.
import type { WarehouseCapabilities } from '@basin/core';

export interface MonitorDialect {
  /** a DATE literal (dates are validated YYYY-MM-DD before they get here) */
  date(day: string): string;
  /** `expr` as a double */
  double(expr: string): string;
  /** `expr` as text */
  text(expr: string): string;
  /** the day (DATE, UTC) of a column of this engine type; null when it is not a date or timestamp */
  day(column: string, engineType: string): string | null;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function monitorDialect(cap: WarehouseCapabilities): MonitorDialect {
  const duckdb = cap.dialect === 'duckdb';
  return {
    date(day) {
      if (!ISO_DAY.test(day)) throw new Error(`not a date: ${day}`);
      return `CAST(${cap.quoteLiteral(day)} AS DATE)`;
    },
    double: (expr) => `CAST((${expr}) AS ${cap.dialect === 'postgres' ? 'DOUBLE PRECISION' : 'DOUBLE'})`,
    text: (expr) => `CAST(${expr} AS VARCHAR)`,
    day(column, engineType) {
      const t = engineType.toUpperCase();
      const q = cap.quoteIdent(column);
      if (t === 'DATE') return q;
      if (!t.startsWith('TIMESTAMP')) return null;
      // PostgreSQL spells the plain one "timestamp without time zone"; Trino adds a precision: timestamp(6) with time zone
      if (/ WITH TIME ZONE$/.test(t)) return duckdb ? `CAST(timezone('UTC', ${q}) AS DATE)` : `CAST(${q} AT TIME ZONE 'UTC' AS DATE)`;
      return `CAST(${q} AS DATE)`;
    },
  };
}
