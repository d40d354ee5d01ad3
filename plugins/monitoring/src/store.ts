import { migrate, type SqliteDb } from '@basin/core';

export interface SegmentMove {
  dimension: string;
  segment: string | null;
  value: number | null;
  baseline: number | null;
  change_pct: number | null;
  delta: number | null;
}

export interface MonitorResult {
  monitor: string;
  source_table: string;
  compare: string;
  period: string | null;
  value: number | null;
  baseline: number | null;
  change_pct: number | null;
  threshold: number | null;
  status: 'ok' | 'alert' | 'insufficient_data' | 'error';
  error: string | null;
  segments: SegmentMove[];
  computed_at: string;
  run_id: string;
  /** true when this result emitted metric_alert (false when the period had already alerted) */
  alert_emitted: boolean;
}

export interface MonitorRun {
  id: string;
  trigger: string;
  source: string | null;
  started_at: string;
  finished_at: string | null;
  monitors: number;
  alerts: number;
  errors: number;
}

/** Monitoring's tables in .basin/state.db (prefix mon_). */
export class MonitorStore {
  constructor(private readonly db: SqliteDb) {
    migrate(db, 'monitoring', [
      `CREATE TABLE mon_runs (id TEXT PRIMARY KEY, trigger TEXT NOT NULL, source TEXT, started_at TEXT NOT NULL, finished_at TEXT,
         monitors INTEGER NOT NULL DEFAULT 0, alerts INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0);
       CREATE TABLE mon_results (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, monitor TEXT NOT NULL, source_table TEXT NOT NULL,
         compare TEXT NOT NULL, period TEXT, value REAL, baseline REAL, change_pct REAL, threshold REAL, status TEXT NOT NULL, error TEXT,
         segments TEXT NOT NULL, alert_emitted INTEGER NOT NULL DEFAULT 0, computed_at TEXT NOT NULL);
       CREATE INDEX mon_results_monitor ON mon_results (monitor, id);
       CREATE INDEX mon_results_computed ON mon_results (computed_at);
       CREATE TABLE mon_alerts (monitor TEXT NOT NULL, period TEXT NOT NULL, value REAL, baseline REAL, change_pct REAL, alerted_at TEXT NOT NULL,
         PRIMARY KEY (monitor, period));`,
    ]);
  }

  startRun(run: MonitorRun): void {
    this.db.prepare('INSERT INTO mon_runs (id, trigger, source, started_at) VALUES (?, ?, ?, ?)').run(run.id, run.trigger, run.source, run.started_at);
  }

  finishRun(run: MonitorRun): void {
    this.db
      .prepare('UPDATE mon_runs SET finished_at = ?, monitors = ?, alerts = ?, errors = ? WHERE id = ?')
      .run(run.finished_at, run.monitors, run.alerts, run.errors, run.id);
  }

  /** Records the alert of a monitor for a period once; false when that period already alerted. */
  claimAlert(r: MonitorResult): boolean {
    const info = this.db
      .prepare('INSERT OR IGNORE INTO mon_alerts (monitor, period, value, baseline, change_pct, alerted_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(r.monitor, r.period, r.value, r.baseline, r.change_pct, r.computed_at);
    return info.changes === 1;
  }

  saveResult(r: MonitorResult): void {
    this.db
      .prepare(
        `INSERT INTO mon_results (run_id, monitor, source_table, compare, period, value, baseline, change_pct, threshold, status, error, segments, alert_emitted, computed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.run_id, r.monitor, r.source_table, r.compare, r.period, r.value, r.baseline, r.change_pct, r.threshold, r.status, r.error, JSON.stringify(r.segments), r.alert_emitted ? 1 : 0, r.computed_at);
  }

  latestRun(): MonitorRun | null {
    return (this.db.prepare('SELECT * FROM mon_runs ORDER BY started_at DESC, rowid DESC LIMIT 1').get() as MonitorRun | undefined) ?? null;
  }

  /** The latest result of each monitor. */
  latestResults(): MonitorResult[] {
    const rows = this.db
      .prepare('SELECT * FROM mon_results WHERE id IN (SELECT max(id) FROM mon_results GROUP BY monitor) ORDER BY monitor')
      .all() as RawResult[];
    return rows.map(fromRow);
  }

  history(sinceIso: string, limit: number, offset: number): { items: MonitorResult[]; total: number } {
    const total = (this.db.prepare('SELECT count(*) AS n FROM mon_results WHERE computed_at >= ?').get(sinceIso) as { n: number }).n;
    const rows = this.db
      .prepare('SELECT * FROM mon_results WHERE computed_at >= ? ORDER BY id DESC LIMIT ? OFFSET ?')
      .all(sinceIso, limit, offset) as RawResult[];
    return { items: rows.map(fromRow), total };
  }

  alertCount(monitor: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM mon_alerts WHERE monitor = ?').get(monitor) as { n: number }).n;
  }
}

type RawResult = Omit<MonitorResult, 'segments' | 'alert_emitted' | 'status'> & { segments: string; alert_emitted: number; status: string; id: number };

function fromRow(r: RawResult): MonitorResult {
  return {
    monitor: r.monitor,
    source_table: r.source_table,
    compare: r.compare,
    period: r.period,
    value: r.value,
    baseline: r.baseline,
    change_pct: r.change_pct,
    threshold: r.threshold,
    status: r.status as MonitorResult['status'],
    error: r.error,
    segments: JSON.parse(r.segments) as SegmentMove[],
    computed_at: r.computed_at,
    run_id: r.run_id,
    alert_emitted: r.alert_emitted === 1,
  };
}
