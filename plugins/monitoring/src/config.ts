import { Type, type Static } from '@sinclair/typebox';
import type { ConfigFileSpec } from '@basin/core';
import { ExpressionError, ExpressionGuard } from './expression-guard.js';

export const MonitorSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9_]+$' }),
    source_table: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*$' }),
    value_expression: Type.String({ minLength: 1 }),
    filter: Type.Optional(Type.String()),
    compare: Type.Union([Type.Literal('week_over_week'), Type.Literal('rolling_7day_avg'), Type.Literal('rolling_30day_avg'), Type.Literal('prior_period')], { default: 'week_over_week' }),
    alert_threshold: Type.Optional(Type.Number()),
    drill_down: Type.Array(Type.String(), { default: [] }),
    /** beyond SPEC: the date column the daily series is built on */
    date_column: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type Monitor = Static<typeof MonitorSchema>;

export const MonitorsFile = Type.Object(
  { enabled: Type.Boolean({ default: true }), monitors: Type.Array(MonitorSchema, { default: [] }) },
  { additionalProperties: false, default: {} },
);
export type MonitorsFile = Static<typeof MonitorsFile>;

/** Accepts the old names: key `metrics` for `monitors`, `warn_threshold` for `alert_threshold`. */
export function normalizeMonitors(raw: unknown, warn: (path: string, message: string) => void): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const r = { ...(raw as Record<string, unknown>) };
  if (r.metrics !== undefined && r.monitors === undefined) {
    r.monitors = r.metrics;
    delete r.metrics;
  }
  if (Array.isArray(r.monitors)) {
    r.monitors = r.monitors.map((m, i) => {
      if (!m || typeof m !== 'object') return m;
      const mm = { ...(m as Record<string, unknown>) };
      if (mm.warn_threshold !== undefined) {
        if (mm.alert_threshold === undefined) mm.alert_threshold = mm.warn_threshold;
        else warn(`/monitors/${i}/warn_threshold`, 'both warn_threshold and alert_threshold are set; alert_threshold is used');
        delete mm.warn_threshold;
      }
      return mm;
    });
  }
  return r;
}

export const monitorsFileSpec: ConfigFileSpec = {
  id: 'monitors',
  path: '.basin/monitors.yml',
  aliases: ['.basin/metrics.yml'],
  format: 'yaml',
  schema: MonitorsFile,
  normalize: normalizeMonitors,
  check: (file: MonitorsFile) => checkMonitorExpressions(file.monitors),
};

/**
 * Parses every monitor's `value_expression` and `filter` with the guard the runtime plans them with
 * (`basin config validate` and a live reload run this; table and column names need the warehouse and
 * are checked when monitors run).
 */
export async function checkMonitorExpressions(monitors: Monitor[]): Promise<Array<{ path: string; message: string }>> {
  const guard = new ExpressionGuard();
  const problems: Array<{ path: string; message: string }> = [];
  try {
    for (const [i, m] of monitors.entries()) {
      for (const field of ['value_expression', 'filter'] as const) {
        const expr = m[field];
        if (expr === undefined) continue;
        try {
          await (field === 'filter' ? guard.filter(expr) : guard.valueExpression(expr));
        } catch (e) {
          if (!(e instanceof ExpressionError)) throw e;
          problems.push({ path: `/monitors/${i}/${field}`, message: `${m.name}.${field} ${e.message}` });
        }
      }
    }
  } finally {
    guard.close();
  }
  return problems;
}
