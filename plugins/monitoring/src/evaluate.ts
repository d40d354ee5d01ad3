import type { WarehouseClient } from '@basin/core';
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

/** a timeout per monitor query: a monitor must not hold the warehouse's read-only user for long */
export const MONITOR_QUERY_TIMEOUT_MS = 120_000;
/** at most this many rows per monitor query (a day × segment series); more is an error, never a silent cut */
export const MONITOR_MAX_ROWS = 200_000;

/** rows of a read-only monitor query as objects, refused when capped */
async function rows<T>(warehouse: WarehouseClient, sql: string): Promise<T[]> {
  // `internal`: on DuckDB the live warehouse (a monitor runs right after the sync that loaded it), as before
  const r = await warehouse.query(sql, { timeoutMs: MONITOR_QUERY_TIMEOUT_MS, maxRows: MONITOR_MAX_ROWS, internal: true });
  if (r.truncated) throw new Error(`the monitor query returned more than ${MONITOR_MAX_ROWS} rows; drill down by a column with fewer values`);
  return r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c.name, row[i]])) as T);
}

/**
 * Computes one monitor: the period is the latest day before `today` (UTC) that has rows; its value
 * is compared with the baseline of the monitor's method; each drill-down column is grouped the same
 * way and its segments ranked by absolute change. All SQL pieces come from the validated plan
 * (quoted identifiers, checked expressions) in the warehouse's dialect; it runs read-only, with a
 * timeout and a row cap, through the warehouse interface.
 */
export async function evaluate(plan: MonitorPlan, warehouse: WarehouseClient, today: string): Promise<Evaluation> {
  const d = plan.dialect;
  const where = plan.filterSql ? ` AND (${plan.filterSql})` : '';
  const periodRow = await rows<{ p: string | null }>(warehouse, `SELECT ${d.text(`max(${plan.dayExpr})`)} AS p FROM ${plan.from} WHERE ${plan.dayExpr} < ${d.date(today)}${where}`);
  const period = periodRow[0]?.p ?? null;
  if (!period) return { period: null, value: null, baseline: null, change_pct: null, crossed: false, segments: [] };
  const from = addDays(period, -LOOKBACK_DAYS[plan.monitor.compare]);
  const valueOf = d.double(plan.valueSql);
  const range = `${plan.dayExpr} BETWEEN ${d.date(from)} AND ${d.date(period)}${where}`;

  const daily = await rows<{ day: string; value: unknown }>(warehouse, `SELECT ${d.text(plan.dayExpr)} AS day, ${valueOf} AS value FROM ${plan.from} WHERE ${range} GROUP BY 1`);
  const series = new Map(daily.map((r) => [r.day, num(r.value)]));
  const value = series.get(period) ?? null;
  const baseline = baselineFor(series, period, plan.monitor.compare);

  // the value of the expression over no rows (count → 0, sum → NULL): a segment absent on a day that has data
  const empty = num((await rows<{ v: unknown }>(warehouse, `SELECT ${valueOf} AS v FROM ${plan.from} WHERE 1 = 0`))[0]?.v);

  const segments: SegmentMove[] = [];
  for (const col of plan.drill) {
    const segmentRows = await rows<{ day: string; segment: string | null; value: unknown }>(
      warehouse,
      `SELECT ${d.text(plan.dayExpr)} AS day, ${d.text(col.sql)} AS segment, ${valueOf} AS value
         FROM ${plan.from} WHERE ${range} GROUP BY 1, 2`,
    );
    const bySegment = new Map<string | null, Map<string, number | null>>();
    for (const r of segmentRows) {
      if (!bySegment.has(r.segment)) bySegment.set(r.segment, new Map());
      bySegment.get(r.segment)!.set(r.day, num(r.value));
    }
    const moves: SegmentMove[] = [];
    for (const [segment, s] of bySegment) {
      for (const day of series.keys()) if (!s.has(day)) s.set(day, empty);
      const sv = s.get(period) ?? null;
      const sb = baselineFor(s, period, plan.monitor.compare);
      moves.push({ dimension: col.column, segment, value: sv, baseline: sb, change_pct: roundPct(changePct(sv, sb)), delta: sv !== null && sb !== null ? sv - sb : null });
    }
    const size = (m: SegmentMove) => (m.delta === null ? -1 : Math.abs(m.delta));
    moves.sort((a, b) => size(b) - size(a) || String(a.segment).localeCompare(String(b.segment)));
    segments.push(...moves.slice(0, SEGMENTS_PER_DIMENSION));
  }
  return { period, value, baseline, change_pct: changePct(value, baseline), crossed: crosses(value, baseline, plan.monitor.alert_threshold), segments };
}
