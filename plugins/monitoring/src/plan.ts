import type { WarehouseClient } from '@basin/core';
import type { Monitor } from './config.js';
import { monitorDialect, type MonitorDialect } from './dialect.js';
import { ExpressionError, type ExpressionGuard } from './expression-guard.js';

/**
 * A monitor whose every piece of SQL is validated: identifiers checked against the catalog and
 * quoted, expressions checked by DuckDB's parser (re-printed by DuckDB on the DuckDB warehouse; as
 * written, in the server's dialect, on a server warehouse, where the read-only user is the boundary).
 */
export interface MonitorPlan {
  monitor: Monitor;
  schema: string;
  table: string;
  /** the table as the warehouse's dialect qualifies it */
  from: string;
  dialect: MonitorDialect;
  dateColumn: string;
  /** SQL for the day of a row (DATE) */
  dayExpr: string;
  valueSql: string;
  filterSql: string | null;
  drill: Array<{ column: string; sql: string }>;
}

export interface PlanProblem {
  monitor: string;
  field: string;
  message: string;
}

export class MonitorPlanError extends Error {
  constructor(readonly problem: PlanProblem) {
    super(`${problem.monitor}.${problem.field}: ${problem.message}`);
  }
}

interface ColumnRow {
  column_name: string;
  data_type: string;
}

/**
 * An expression as written, for a server dialect: DuckDB's re-print is DuckDB SQL (count(*) becomes
 * count_star()). The guard has checked it is one expression; the line break ends a trailing comment.
 */
const asWritten = (expr: string): string => `(${expr.trim()}\n)`;

export async function planMonitor(m: Monitor, warehouse: WarehouseClient, guard: ExpressionGuard): Promise<MonitorPlan> {
  const fail = (field: string, message: string): never => {
    throw new MonitorPlanError({ monitor: m.name, field, message });
  };
  const cap = warehouse.capabilities;
  const dialect = monitorDialect(cap);
  const duckdb = cap.dialect === 'duckdb';
  const dayExpression = (column: string, type: string) => dialect.day(column, type);
  const [schema, table] = m.source_table.split('.') as [string, string];
  const columns: ColumnRow[] = ((await warehouse.describeTable(schema, table)) ?? []).map((c) => ({ column_name: c.name, data_type: c.type }));
  if (!columns.length) fail('source_table', `table ${m.source_table} does not exist in the warehouse`);
  const byName = new Map(columns.map((c) => [c.column_name, c]));

  let dateColumn: string;
  let dayExpr: string | null;
  if (m.date_column) {
    const c = byName.get(m.date_column) ?? fail('date_column', `column ${m.date_column} does not exist in ${m.source_table}`);
    dateColumn = c.column_name;
    dayExpr = dayExpression(c.column_name, c.data_type) ?? fail('date_column', `column ${m.date_column} is ${c.data_type}, not a DATE or TIMESTAMP`);
  } else {
    const c = columns.find((col) => dayExpression(col.column_name, col.data_type));
    if (!c) fail('source_table', `${m.source_table} has no DATE or TIMESTAMP column; set date_column`);
    dateColumn = c!.column_name;
    dayExpr = dayExpression(c!.column_name, c!.data_type);
  }

  const drill = m.drill_down.map((col, i) => {
    const c = byName.get(col) ?? fail(`drill_down/${i}`, `column ${col} does not exist in ${m.source_table}`);
    return { column: c.column_name, sql: cap.quoteIdent(c.column_name) };
  });

  let valueSql: string;
  try {
    const canonical = await guard.valueExpression(m.value_expression);
    valueSql = duckdb ? canonical : asWritten(m.value_expression);
  } catch (e) {
    if (e instanceof ExpressionError) fail('value_expression', e.message);
    throw e;
  }
  let filterSql: string | null = null;
  if (m.filter !== undefined && m.filter.trim() !== '') {
    try {
      const canonical = await guard.filter(m.filter);
      filterSql = duckdb ? canonical : asWritten(m.filter);
    } catch (e) {
      if (e instanceof ExpressionError) fail('filter', e.message);
      throw e;
    }
  }
  return { monitor: m, schema, table, from: cap.qualify(schema, table), dialect, dateColumn, dayExpr: dayExpr!, valueSql: valueSql!, filterSql, drill };
}
