import type { Monitor } from './config.js';

export type CompareMethod = Monitor['compare'];

/** Days of history each method needs before the period. */
export const LOOKBACK_DAYS: Record<CompareMethod, number> = {
  week_over_week: 7,
  prior_period: 1,
  rolling_7day_avg: 7,
  rolling_30day_avg: 30,
};

export const addDays = (day: string, n: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/**
 * The baseline of `period` from a daily series (day → value; a missing day has no rows):
 * week_over_week = the same weekday a week earlier; prior_period = the day before;
 * rolling_Nday_avg = the mean of the N days before the period that have a value.
 * null when the needed history is missing.
 */
export function baselineFor(series: Map<string, number | null>, period: string, method: CompareMethod): number | null {
  if (method === 'week_over_week') return series.get(addDays(period, -7)) ?? null;
  if (method === 'prior_period') return series.get(addDays(period, -1)) ?? null;
  const n = LOOKBACK_DAYS[method];
  const values: number[] = [];
  for (let i = 1; i <= n; i++) {
    const v = series.get(addDays(period, -i));
    if (v !== undefined && v !== null) values.push(v);
  }
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** Percent change from baseline to value; null when it is undefined (no baseline, or 0 → non-zero). */
export function changePct(value: number | null, baseline: number | null): number | null {
  if (value === null || baseline === null) return null;
  if (baseline === 0) return value === 0 ? 0 : null;
  return ((value - baseline) / Math.abs(baseline)) * 100;
}

/** change_pct as reported (top level and segments alike): two decimals */
export const roundPct = (pct: number | null): number | null => (pct === null ? null : Math.round(pct * 100) / 100);

/** Crossing the threshold: |change %| ≥ threshold; a move from 0 to non-zero counts as crossing. */
export function crosses(value: number | null, baseline: number | null, threshold: number | undefined): boolean {
  if (threshold === undefined || value === null || baseline === null) return false;
  const pct = changePct(value, baseline);
  if (pct === null) return baseline === 0 && value !== 0;
  return Math.abs(pct) >= Math.abs(threshold);
}
