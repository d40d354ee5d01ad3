import { migrate, type SqliteDb } from '@basin/core';
import type { ObservedColumns, SyncRecord, SyncTable } from './types.js';

const MIGRATIONS = [
  `CREATE TABLE sync_history (
     id TEXT PRIMARY KEY, source TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,
     rows INTEGER NOT NULL DEFAULT 0, tables_json TEXT NOT NULL DEFAULT '[]', error TEXT, trigger TEXT NOT NULL,
     schedule TEXT, full_refresh INTEGER NOT NULL DEFAULT 0);
   CREATE INDEX sync_history_source ON sync_history (source, started_at);
   CREATE TABLE sync_state (source TEXT NOT NULL, resource TEXT NOT NULL, state_json TEXT NOT NULL, sync_id TEXT NOT NULL,
     updated_at TEXT NOT NULL, PRIMARY KEY (source, resource));
   CREATE TABLE sync_state_pending (sync_id TEXT NOT NULL, source TEXT NOT NULL, resource TEXT NOT NULL, state_json TEXT NOT NULL,
     PRIMARY KEY (sync_id, resource));
   CREATE TABLE sync_tables (source TEXT NOT NULL, table_name TEXT NOT NULL, schema_name TEXT NOT NULL, rows INTEGER NOT NULL,
     columns_json TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (source, table_name));
   CREATE TABLE sync_schema_changes (id INTEGER PRIMARY KEY AUTOINCREMENT, source TEXT NOT NULL, table_name TEXT NOT NULL,
     sync_id TEXT NOT NULL, changes_json TEXT NOT NULL, at TEXT NOT NULL);
   CREATE TABLE sync_logs (id INTEGER PRIMARY KEY AUTOINCREMENT, sync_id TEXT, source TEXT NOT NULL, at TEXT NOT NULL,
     level TEXT NOT NULL, message TEXT NOT NULL);
   CREATE INDEX sync_logs_source ON sync_logs (source, id);`,
  // schema history is governance's (gov_drift_events); sync keeps only the current columns
  `DROP TABLE sync_schema_changes;`,
];

export interface LogLine {
  id: number;
  sync_id: string | null;
  source: string;
  at: string;
  level: string;
  message: string;
}

export interface TableInfo {
  source: string;
  name: string;
  schema: string;
  rows: number;
  columns: ObservedColumns;
  updated_at: string;
}

interface HistoryRow {
  id: string;
  source: string;
  status: SyncRecord['status'];
  started_at: string;
  finished_at: string | null;
  rows: number;
  tables_json: string;
  error: string | null;
  trigger: string;
  schedule: string | null;
}

const toRecord = (r: HistoryRow): SyncRecord => ({
  id: r.id,
  source: r.source,
  status: r.status,
  started_at: r.started_at,
  finished_at: r.finished_at,
  rows: r.rows,
  tables: JSON.parse(r.tables_json) as SyncTable[],
  error: r.error,
  trigger: r.trigger,
  schedule: r.schedule,
});

/** The sync plugin's tables in .basin/state.db: history, committed cursor state, observed schemas, logs. */
export class SyncStore {
  constructor(readonly db: SqliteDb) {
    migrate(db, 'sync', MIGRATIONS);
  }

  insertHistory(r: SyncRecord, fullRefresh: boolean): void {
    this.db
      .prepare('INSERT INTO sync_history (id, source, status, started_at, finished_at, rows, tables_json, error, trigger, schedule, full_refresh) VALUES (?,?,?,?,?,?,?,?,?,?,?)')
      .run(r.id, r.source, r.status, r.started_at, r.finished_at, r.rows, JSON.stringify(r.tables), r.error, r.trigger, r.schedule, fullRefresh ? 1 : 0);
  }

  finishHistory(r: SyncRecord): void {
    this.db
      .prepare('UPDATE sync_history SET status = ?, started_at = ?, finished_at = ?, rows = ?, tables_json = ?, error = ? WHERE id = ?')
      .run(r.status, r.started_at, r.finished_at, r.rows, JSON.stringify(r.tables), r.error, r.id);
  }

  /** Syncs left "running" by a process that died are failed, so the history never lies. */
  failInterrupted(at: string): number {
    return this.db
      .prepare("UPDATE sync_history SET status = 'failed', finished_at = ?, error = 'interrupted: Basin stopped while this sync was running; the previous data was kept' WHERE status = 'running'")
      .run(at).changes;
  }

  getHistory(id: string): SyncRecord | undefined {
    const r = this.db.prepare('SELECT * FROM sync_history WHERE id = ?').get(id) as HistoryRow | undefined;
    return r ? toRecord(r) : undefined;
  }

  history(source: string, limit = 20, offset = 0): { items: SyncRecord[]; total: number } {
    const items = (this.db.prepare('SELECT * FROM sync_history WHERE source = ? ORDER BY started_at DESC, rowid DESC LIMIT ? OFFSET ?').all(source, limit, offset) as HistoryRow[]).map(toRecord);
    const total = (this.db.prepare('SELECT count(*) AS n FROM sync_history WHERE source = ?').get(source) as { n: number }).n;
    return { items, total };
  }

  /** syncs of every source, newest first (the overview's recent activity) */
  recent(limit: number): SyncRecord[] {
    return (this.db.prepare('SELECT * FROM sync_history ORDER BY started_at DESC, rowid DESC LIMIT ?').all(limit) as HistoryRow[]).map(toRecord);
  }

  /** rows loaded and syncs per UTC day since `since` (YYYY-MM-DD), oldest first; days without syncs are absent */
  perDay(since: string): Array<{ day: string; rows: number; syncs: number; failed: number }> {
    return this.db
      .prepare(
        `SELECT substr(started_at, 1, 10) AS day, sum(CASE WHEN status = 'succeeded' THEN rows ELSE 0 END) AS rows, count(*) AS syncs,
                sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed
           FROM sync_history WHERE started_at >= ? GROUP BY day ORDER BY day`,
      )
      .all(since) as Array<{ day: string; rows: number; syncs: number; failed: number }>;
  }

  /** the newest finished sync that tells the source's status (a cancelled run does not change it) */
  lastDecisive(source: string): SyncRecord | undefined {
    const r = this.db
      .prepare("SELECT * FROM sync_history WHERE source = ? AND status IN ('succeeded','failed','empty') ORDER BY started_at DESC, rowid DESC LIMIT 1")
      .get(source) as HistoryRow | undefined;
    return r ? toRecord(r) : undefined;
  }

  lastSuccess(source: string): SyncRecord | undefined {
    const r = this.db
      .prepare("SELECT * FROM sync_history WHERE source = ? AND status IN ('succeeded','empty') ORDER BY started_at DESC, rowid DESC LIMIT 1")
      .get(source) as HistoryRow | undefined;
    return r ? toRecord(r) : undefined;
  }

  /** sources whose latest decisive sync failed, with that failure */
  failures(): SyncRecord[] {
    const rows = this.db
      .prepare(
        `SELECT h.* FROM sync_history h JOIN (SELECT source, max(started_at) AS s FROM sync_history WHERE status IN ('succeeded','failed','empty') GROUP BY source) m
         ON h.source = m.source AND h.started_at = m.s WHERE h.status = 'failed'`,
      )
      .all() as HistoryRow[];
    return rows.map(toRecord);
  }

  // cursor state: committed only together with its data (two-phase, see SyncLoader.commit)
  state(source: string): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const r of this.db.prepare('SELECT resource, state_json FROM sync_state WHERE source = ?').all(source) as Array<{ resource: string; state_json: string }>) {
      out[r.resource] = JSON.parse(r.state_json);
    }
    return out;
  }

  writePending(syncId: string, source: string, states: Map<string, Record<string, unknown>>): void {
    const ins = this.db.prepare('INSERT OR REPLACE INTO sync_state_pending (sync_id, source, resource, state_json) VALUES (?,?,?,?)');
    this.db.transaction(() => {
      for (const [res, st] of states) ins.run(syncId, source, res, JSON.stringify(st));
    })();
  }

  /** moves a sync's pending state into place; `fullRefresh` first forgets the source's old state */
  promotePending(syncId: string, at: string, fullRefresh = false): void {
    this.db.transaction(() => {
      const rows = this.db.prepare('SELECT source, resource, state_json FROM sync_state_pending WHERE sync_id = ?').all(syncId) as Array<{ source: string; resource: string; state_json: string }>;
      if (fullRefresh && rows[0]) this.db.prepare('DELETE FROM sync_state WHERE source = ?').run(rows[0].source);
      const up = this.db.prepare('INSERT OR REPLACE INTO sync_state (source, resource, state_json, sync_id, updated_at) VALUES (?,?,?,?,?)');
      for (const r of rows) up.run(r.source, r.resource, r.state_json, syncId, at);
      this.db.prepare('DELETE FROM sync_state_pending WHERE sync_id = ?').run(syncId);
    })();
  }

  dropPending(syncId: string): void {
    this.db.prepare('DELETE FROM sync_state_pending WHERE sync_id = ?').run(syncId);
  }

  pendingSyncIds(): string[] {
    return (this.db.prepare('SELECT DISTINCT sync_id FROM sync_state_pending').all() as Array<{ sync_id: string }>).map((r) => r.sync_id);
  }

  clearState(source: string): void {
    this.db.prepare('DELETE FROM sync_state WHERE source = ?').run(source);
  }

  // observed tables and schemas
  tables(source?: string): TableInfo[] {
    const rows = (source
      ? this.db.prepare('SELECT * FROM sync_tables WHERE source = ? ORDER BY table_name').all(source)
      : this.db.prepare('SELECT * FROM sync_tables ORDER BY source, table_name').all()) as Array<{ source: string; table_name: string; schema_name: string; rows: number; columns_json: string; updated_at: string }>;
    return rows.map((r) => ({ source: r.source, name: r.table_name, schema: r.schema_name, rows: r.rows, columns: JSON.parse(r.columns_json), updated_at: r.updated_at }));
  }

  /** records a table's rows and columns after a swap (schema changes are recorded by governance) */
  observeTable(source: string, t: { name: string; schema: string; rows: number; columns: ObservedColumns }, at: string): void {
    this.db
      .prepare('INSERT OR REPLACE INTO sync_tables (source, table_name, schema_name, rows, columns_json, updated_at) VALUES (?,?,?,?,?,?)')
      .run(source, t.name, t.schema, t.rows, JSON.stringify(t.columns), at);
  }

  // logs
  log(source: string, syncId: string | null, level: string, message: string, at: string): void {
    this.db.prepare('INSERT INTO sync_logs (sync_id, source, at, level, message) VALUES (?,?,?,?,?)').run(syncId, source, at, level, message);
  }

  logs(source: string | null, limit: number, offset: number, filter: { level?: string; since?: string; until?: string } = {}): { items: LogLine[]; total: number } {
    const where: string[] = [];
    const args: unknown[] = [];
    if (source) where.push('source = ?'), args.push(source);
    if (filter.level) where.push('level = ?'), args.push(filter.level);
    if (filter.since) where.push('at >= ?'), args.push(filter.since);
    if (filter.until) where.push('at <= ?'), args.push(filter.until);
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const items = this.db.prepare(`SELECT * FROM sync_logs ${w} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as LogLine[];
    const total = (this.db.prepare(`SELECT count(*) AS n FROM sync_logs ${w}`).get(...args) as { n: number }).n;
    return { items, total };
  }

}
