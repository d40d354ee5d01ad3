import { migrate, type SqliteDb } from '@basin/core';
import type { TxModelResult, TxRunRecord } from './types.js';

const MIGRATIONS = [
  `CREATE TABLE tx_runs (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     status TEXT NOT NULL,
     command TEXT NOT NULL,
     selector TEXT,
     excluded_sources TEXT NOT NULL DEFAULT '[]',
     queued_at TEXT NOT NULL,
     started_at TEXT,
     finished_at TEXT,
     trigger TEXT NOT NULL,
     schedule TEXT,
     error TEXT,
     notes TEXT NOT NULL DEFAULT '[]',
     docs_generated INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE TABLE tx_model_results (
     run_id TEXT NOT NULL REFERENCES tx_runs(id) ON DELETE CASCADE,
     unique_id TEXT,
     name TEXT NOT NULL,
     resource_type TEXT,
     status TEXT NOT NULL,
     execution_time REAL,
     rows_affected INTEGER,
     error TEXT,
     finished_at TEXT NOT NULL
   );
   CREATE INDEX tx_model_results_name ON tx_model_results(name, finished_at)`,
  `CREATE TABLE tx_staging_reports (source TEXT PRIMARY KEY, report TEXT NOT NULL, generated_at TEXT NOT NULL)`,
];

interface RunRow {
  id: string;
  status: TxRunRecord['status'];
  command: string;
  selector: string | null;
  excluded_sources: string;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  trigger: string;
  schedule: string | null;
  error: string | null;
  notes: string;
  docs_generated: number;
}

export interface LatestModelResult extends TxModelResult {
  run_id: string;
  finished_at: string;
}

/** Run history in .basin/state.db (tables tx_runs, tx_model_results). */
export function migrateTx(db: SqliteDb): void {
  migrate(db, 'transform', MIGRATIONS);
}

export class TxHistory {
  constructor(private readonly db: SqliteDb) {
    migrateTx(db);
  }

  save(r: TxRunRecord): void {
    this.db
      .prepare(
        `INSERT INTO tx_runs (id, status, command, selector, excluded_sources, queued_at, started_at, finished_at, trigger, schedule, error, notes, docs_generated)
         VALUES (@id, @status, @command, @selector, @excluded_sources, @queued_at, @started_at, @finished_at, @trigger, @schedule, @error, @notes, @docs_generated)
         ON CONFLICT(id) DO UPDATE SET status=excluded.status, started_at=excluded.started_at, finished_at=excluded.finished_at,
           error=excluded.error, notes=excluded.notes, docs_generated=excluded.docs_generated`,
      )
      .run({ ...r, excluded_sources: JSON.stringify(r.excluded_sources), notes: JSON.stringify(r.notes), docs_generated: r.docs_generated ? 1 : 0 });
  }

  saveModels(runId: string, finishedAt: string, models: TxModelResult[]): void {
    const ins = this.db.prepare(
      `INSERT INTO tx_model_results (run_id, unique_id, name, resource_type, status, execution_time, rows_affected, error, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM tx_model_results WHERE run_id = ?').run(runId);
      for (const m of models) ins.run(runId, m.unique_id ?? null, m.name, m.resource_type ?? null, m.status, m.execution_time, m.rows_affected, m.error, finishedAt);
    })();
  }

  private models(runId: string): TxModelResult[] {
    return (this.db.prepare('SELECT * FROM tx_model_results WHERE run_id = ? ORDER BY rowid').all(runId) as any[]).map((m) => ({
      name: m.name,
      unique_id: m.unique_id ?? undefined,
      resource_type: m.resource_type ?? undefined,
      status: m.status,
      execution_time: m.execution_time,
      rows_affected: m.rows_affected,
      error: m.error,
    }));
  }

  private toRecord(r: RunRow): TxRunRecord {
    return {
      id: r.id,
      status: r.status,
      command: r.command,
      selector: r.selector,
      excluded_sources: JSON.parse(r.excluded_sources),
      queued_at: r.queued_at,
      started_at: r.started_at,
      finished_at: r.finished_at,
      trigger: r.trigger,
      schedule: r.schedule,
      models: this.models(r.id),
      error: r.error,
      notes: JSON.parse(r.notes),
      docs_generated: !!r.docs_generated,
    };
  }

  get(id: string): TxRunRecord | undefined {
    const r = this.db.prepare('SELECT * FROM tx_runs WHERE id = ?').get(id) as RunRow | undefined;
    return r && this.toRecord(r);
  }

  list(limit: number, offset: number): { items: TxRunRecord[]; total: number } {
    const total = (this.db.prepare('SELECT COUNT(*) AS n FROM tx_runs').get() as { n: number }).n;
    const rows = this.db.prepare('SELECT * FROM tx_runs ORDER BY seq DESC LIMIT ? OFFSET ?').all(limit, offset) as RunRow[];
    return { items: rows.map((r) => this.toRecord(r)), total };
  }

  /** The most recent result of every node that ever ran (what GET /api/tx/models shows). */
  latestByNode(): Map<string, LatestModelResult> {
    const rows = this.db
      .prepare(
        `SELECT m.*, m.rowid AS rid FROM tx_model_results m
         JOIN (SELECT name, MAX(rowid) AS rid FROM tx_model_results GROUP BY name) last ON last.rid = m.rowid`,
      )
      .all() as any[];
    return new Map(
      rows.map((m) => [
        m.name,
        { name: m.name, unique_id: m.unique_id ?? undefined, resource_type: m.resource_type ?? undefined, status: m.status, execution_time: m.execution_time, rows_affected: m.rows_affected, error: m.error, run_id: m.run_id, finished_at: m.finished_at },
      ]),
    );
  }

  /** The last finished run, if any. */
  lastFinished(): TxRunRecord | undefined {
    const r = this.db.prepare("SELECT * FROM tx_runs WHERE status IN ('succeeded','failed','cancelled') ORDER BY seq DESC LIMIT 1").get() as RunRow | undefined;
    return r && this.toRecord(r);
  }

  /** Runs left 'queued'/'running' by a previous process that stopped: they will never finish. */
  markInterrupted(at: string): void {
    this.db.prepare("UPDATE tx_runs SET status='cancelled', finished_at=?, error=COALESCE(error, 'interrupted: Basin stopped during the run') WHERE status IN ('queued','running')").run(at);
  }
}
