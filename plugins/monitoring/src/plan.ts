import { ident, type Warehouse } from '@basin/core';
import type { Monitor } from './config.js';
import { ExpressionError, type ExpressionGuard } from './expression-guard.js';

/** A monitor whose every piece of SQL is validated: identifiers checked against the catalog and quoted, expressions re-printed by DuckDB. */
export interface MonitorPlan {
  monitor: Monitor;
  schema: string;
  table: string;
  /** quoted `"schema"."table"` */
  from: string;
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

/** The day of a row: DATE as is, TIMESTAMP cast, TIMESTAMP WITH TIME ZONE taken in UTC. */
function dayExpression(column: string, dataType: string): string | null {
  const t = dataType.toUpperCase();
  if (t === 'DATE') return ident(column);
  if (t === 'TIMESTAMP WITH TIME ZONE') return `CAST(timezone('UTC', ${ident(column)}) AS DATE)`;
  if (t.startsWith('TIMESTAMP')) return `CAST(${ident(column)} AS DATE)`;
  return null;
}

export async function planMonitor(m: Monitor, warehouse: Warehouse, guard: ExpressionGuard): Promise<MonitorPlan> {
  const fail = (field: string, message: string): never => {
    throw new MonitorPlanError({ monitor: m.name, field, message });
  };
  const [schema, table] = m.source_table.split('.') as [string, string];
  const columns = await warehouse.query<ColumnRow>(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
    [schema, table],
  );
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
    return { column: c.column_name, sql: ident(c.column_name) };
  });

  let valueSql: string;
  try {
    valueSql = await guard.valueExpression(m.value_expression);
  } catch (e) {
    if (e instanceof ExpressionError) fail('value_expression', e.message);
    throw e;
  }
  let filterSql: string | null = null;
  if (m.filter !== undefined && m.filter.trim() !== '') {
    try {
      filterSql = await guard.filter(m.filter);
    } catch (e) {
      if (e instanceof ExpressionError) fail('filter', e.message);
      throw e;
    }
  }
  return { monitor: m, schema, table, from: `${ident(schema)}.${ident(table)}`, dateColumn, dayExpr: dayExpr!, valueSql: valueSql!, filterSql, drill };
}
