import type { Warehouse } from '@basin/core';
import { addDays, baselineFor, changePct, crosses, LOOKBACK_DAYS, roundPct } from './compare.js';
import type { MonitorPlan } from './plan.js';
import type { SegmentMove } from './store.js';

/** Segments kept per drill-down column, largest absolute move first. */
export const SEGMENTS_PER_DIMENSION = 5;

export interface Evaluation {
  period: string | null;
  value: number | null;
  baseline: number | null;
  change_pct: number | null;
  crossed: boolean;
  segments: SegmentMove[];
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Computes one monitor: the period is the latest day before `today` (UTC) that has rows; its value
 * is compared with the baseline of the monitor's method; each drill-down column is grouped the same
 * way and its segments ranked by absolute change. All SQL pieces come from the validated plan
 * (quoted identifiers, DuckDB-reprinted expressions); dates are bound parameters.
 */
export async function evaluate(plan: MonitorPlan, warehouse: Warehouse, today: string): Promise<Evaluation> {
  const where = plan.filterSql ? ` AND (${plan.filterSql})` : '';
  const periodRow = await warehouse.query<{ p: string | null }>(
    `SELECT CAST(max(${plan.dayExpr}) AS VARCHAR) AS p FROM ${plan.from} WHERE ${plan.dayExpr} < CAST($1 AS DATE)${where}`,
    [today],
  );
  const period = periodRow[0]?.p ?? null;
  if (!period) return { period: null, value: null, baseline: null, change_pct: null, crossed: false, segments: [] };
  const from = addDays(period, -LOOKBACK_DAYS[plan.monitor.compare]);
  const valueOf = `CAST((${plan.valueSql}) AS DOUBLE)`;
  const range = `${plan.dayExpr} BETWEEN CAST($1 AS DATE) AND CAST($2 AS DATE)${where}`;

  const daily = await warehouse.query<{ day: string; value: unknown }>(
    `SELECT CAST(${plan.dayExpr} AS VARCHAR) AS day, ${valueOf} AS value FROM ${plan.from} WHERE ${range} GROUP BY 1`,
    [from, period],
  );
  const series = new Map(daily.map((r) => [r.day, num(r.value)]));
  const value = series.get(period) ?? null;
  const baseline = baselineFor(series, period, plan.monitor.compare);

  // the value of the expression over no rows (count → 0, sum → NULL): a segment absent on a day that has data
  const empty = num((await warehouse.query<{ v: unknown }>(`SELECT ${valueOf} AS v FROM ${plan.from} WHERE false`))[0]?.v);

  const segments: SegmentMove[] = [];
  for (const d of plan.drill) {
    const rows = await warehouse.query<{ day: string; segment: string | null; value: unknown }>(
      `SELECT CAST(${plan.dayExpr} AS VARCHAR) AS day, CAST(${d.sql} AS VARCHAR) AS segment, ${valueOf} AS value
         FROM ${plan.from} WHERE ${range} GROUP BY 1, 2`,
      [from, period],
    );
    const bySegment = new Map<string | null, Map<string, number | null>>();
    for (const r of rows) {
      if (!bySegment.has(r.segment)) bySegment.set(r.segment, new Map());
      bySegment.get(r.segment)!.set(r.day, num(r.value));
    }
    const moves: SegmentMove[] = [];
    for (const [segment, s] of bySegment) {
      for (const day of series.keys()) if (!s.has(day)) s.set(day, empty);
      const sv = s.get(period) ?? null;
      const sb = baselineFor(s, period, plan.monitor.compare);
      moves.push({ dimension: d.column, segment, value: sv, baseline: sb, change_pct: roundPct(changePct(sv, sb)), delta: sv !== null && sb !== null ? sv - sb : null });
    }
    const size = (m: SegmentMove) => (m.delta === null ? -1 : Math.abs(m.delta));
    moves.sort((a, b) => size(b) - size(a) || String(a.segment).localeCompare(String(b.segment)));
    segments.push(...moves.slice(0, SEGMENTS_PER_DIMENSION));
  }
  return { period, value, baseline, change_pct: changePct(value, baseline), crossed: crosses(value, baseline, plan.monitor.alert_threshold), segments };
}
