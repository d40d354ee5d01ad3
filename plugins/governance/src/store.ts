import { migrate, type SqliteDb } from '@basin/core';
import type { ColumnSchema, DriftChange } from './drift.js';
import type { PiiFinding } from './pii/types.js';

/** Governance tables in `.basin/state.db` (all prefixed `gov_`). */
const MIGRATIONS = [
  `CREATE TABLE gov_baselines (
     source TEXT NOT NULL, table_name TEXT NOT NULL, table_schema TEXT NOT NULL,
     columns TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (source, table_name));
   CREATE TABLE gov_drift_events (
     id INTEGER PRIMARY KEY AUTOINCREMENT, source TEXT NOT NULL, table_name TEXT NOT NULL, table_schema TEXT NOT NULL,
     change_type TEXT NOT NULL, column_name TEXT NOT NULL, old_type TEXT, new_type TEXT,
     breaking INTEGER NOT NULL, status TEXT NOT NULL, sync_id TEXT, detected_at TEXT NOT NULL, resolved_at TEXT);
   CREATE INDEX gov_drift_events_source ON gov_drift_events (source, table_name);
   CREATE TABLE gov_attention (source TEXT PRIMARY KEY, reason TEXT NOT NULL, sync_id TEXT, since TEXT NOT NULL);
   CREATE TABLE gov_pii_findings (
     source TEXT NOT NULL, table_name TEXT NOT NULL, column_name TEXT NOT NULL, table_schema TEXT NOT NULL,
     entity_type TEXT NOT NULL, confidence REAL NOT NULL, matched_share REAL NOT NULL, sample_count INTEGER NOT NULL,
     masked_examples TEXT NOT NULL, method TEXT NOT NULL, sync_id TEXT, first_seen TEXT NOT NULL, last_seen TEXT NOT NULL,
     PRIMARY KEY (source, table_name, column_name));
   CREATE TABLE gov_pii_scans (source TEXT NOT NULL, table_name TEXT NOT NULL, schema_hash TEXT NOT NULL, scanned_at TEXT NOT NULL, PRIMARY KEY (source, table_name));
   CREATE TABLE gov_sync_failures (source TEXT PRIMARY KEY, sync_id TEXT, error TEXT, failed_at TEXT NOT NULL);`,
  // the schema each table's latest load delivered (an incremental load keeps columns its files no longer have)
  `CREATE TABLE gov_loaded_schemas (source TEXT NOT NULL, table_name TEXT NOT NULL, columns TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (source, table_name));`,
];

export interface Baseline {
  source: string;
  table_name: string;
  table_schema: string;
  columns: ColumnSchema[];
  updated_at: string;
}

export interface DriftEventRow {
  id: number;
  source: string;
  table: string;
  schema: string;
  change_type: DriftChange['change_type'];
  column: string;
  old_type: string | null;
  new_type: string | null;
  breaking: boolean;
  status: 'auto_accepted' | 'pending' | 'accepted';
  sync_id: string | null;
  detected_at: string;
  resolved_at: string | null;
}

export interface AttentionFlag {
  source: string;
  reason: string;
  sync_id: string | null;
  since: string;
}

export interface SyncFailure {
  source: string;
  sync_id: string | null;
  error: string | null;
  failed_at: string;
}

export class GovernanceStore {
  constructor(private readonly db: SqliteDb) {
    migrate(db, 'governance', MIGRATIONS);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  baseline(source: string, table: string): Baseline | undefined {
    const r = this.db.prepare('SELECT * FROM gov_baselines WHERE source = ? AND table_name = ?').get(source, table) as any;
    return r ? { ...r, columns: JSON.parse(r.columns) } : undefined;
  }

  baselines(source: string): Baseline[] {
    return (this.db.prepare('SELECT * FROM gov_baselines WHERE source = ? ORDER BY table_name').all(source) as any[]).map((r) => ({ ...r, columns: JSON.parse(r.columns) }));
  }

  saveBaseline(b: Baseline): void {
    this.db
      .prepare(
        `INSERT INTO gov_baselines (source, table_name, table_schema, columns, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (source, table_name) DO UPDATE SET table_schema = excluded.table_schema, columns = excluded.columns, updated_at = excluded.updated_at`,
      )
      .run(b.source, b.table_name, b.table_schema, JSON.stringify(b.columns), b.updated_at);
  }

  deleteBaseline(source: string, table: string): void {
    this.db.prepare('DELETE FROM gov_baselines WHERE source = ? AND table_name = ?').run(source, table);
    this.db.prepare('DELETE FROM gov_loaded_schemas WHERE source = ? AND table_name = ?').run(source, table);
  }

  saveLoadedSchema(source: string, table: string, columns: ColumnSchema[], at: string): void {
    this.db
      .prepare('INSERT INTO gov_loaded_schemas (source, table_name, columns, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (source, table_name) DO UPDATE SET columns = excluded.columns, updated_at = excluded.updated_at')
      .run(source, table, JSON.stringify(columns), at);
  }

  loadedSchema(source: string, table: string): ColumnSchema[] | undefined {
    const r = this.db.prepare('SELECT columns FROM gov_loaded_schemas WHERE source = ? AND table_name = ?').get(source, table) as { columns: string } | undefined;
    return r ? JSON.parse(r.columns) : undefined;
  }

  addDriftEvent(e: Omit<DriftEventRow, 'id' | 'resolved_at'>): void {
    this.db
      .prepare(
        `INSERT INTO gov_drift_events (source, table_name, table_schema, change_type, column_name, old_type, new_type, breaking, status, sync_id, detected_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(e.source, e.table, e.schema, e.change_type, e.column, e.old_type, e.new_type, e.breaking ? 1 : 0, e.status, e.sync_id, e.detected_at);
  }

  /** a pending event identical to this change already exists (re-syncs while flagged do not repeat it) */
  hasPending(source: string, table: string, c: DriftChange): boolean {
    return !!this.db
      .prepare(
        `SELECT 1 FROM gov_drift_events WHERE status = 'pending' AND source = ? AND table_name = ? AND change_type = ? AND column_name = ?
           AND coalesce(new_type, '') = coalesce(?, '')`,
      )
      .get(source, table, c.change_type, c.column, c.new_type);
  }

  driftEvents(filter: { source?: string; table?: string; limit: number; offset: number }): { items: DriftEventRow[]; total: number } {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.source) (where.push('source = ?'), args.push(filter.source));
    if (filter.table) (where.push('table_name = ?'), args.push(filter.table));
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT count(*) AS n FROM gov_drift_events ${w}`).get(...args) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * FROM gov_drift_events ${w} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, filter.limit, filter.offset) as any[];
    return { items: rows.map(toDriftEvent), total };
  }

  /** every recorded change of a source, oldest first */
  sourceHistory(source: string): DriftEventRow[] {
    return (this.db.prepare('SELECT * FROM gov_drift_events WHERE source = ? ORDER BY id').all(source) as any[]).map(toDriftEvent);
  }

  pendingDrift(source?: string): DriftEventRow[] {
    const rows = source
      ? this.db.prepare(`SELECT * FROM gov_drift_events WHERE status = 'pending' AND source = ? ORDER BY id`).all(source)
      : this.db.prepare(`SELECT * FROM gov_drift_events WHERE status = 'pending' ORDER BY id`).all();
    return (rows as any[]).map(toDriftEvent);
  }

  resolvePending(source: string, at: string): number {
    return this.db.prepare(`UPDATE gov_drift_events SET status = 'accepted', resolved_at = ? WHERE status = 'pending' AND source = ?`).run(at, source).changes;
  }

  knowsSource(source: string): boolean {
    return !!(
      this.db.prepare('SELECT 1 FROM gov_baselines WHERE source = ? LIMIT 1').get(source) ||
      this.db.prepare('SELECT 1 FROM gov_drift_events WHERE source = ? LIMIT 1').get(source) ||
      this.db.prepare('SELECT 1 FROM gov_attention WHERE source = ?').get(source)
    );
  }

  setAttention(f: AttentionFlag): void {
    this.db
      .prepare('INSERT INTO gov_attention (source, reason, sync_id, since) VALUES (?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET sync_id = excluded.sync_id')
      .run(f.source, f.reason, f.sync_id, f.since);
  }

  clearAttention(source: string): boolean {
    return this.db.prepare('DELETE FROM gov_attention WHERE source = ?').run(source).changes > 0;
  }

  attention(): AttentionFlag[] {
    return this.db.prepare('SELECT * FROM gov_attention ORDER BY source').all() as AttentionFlag[];
  }

  upsertFinding(f: PiiFinding & { schema: string; method: string; sync_id: string | null; at: string }): boolean {
    const existing = this.db.prepare('SELECT entity_type FROM gov_pii_findings WHERE source = ? AND table_name = ? AND column_name = ?').get(f.source, f.table, f.column) as
      | { entity_type: string }
      | undefined;
    this.db
      .prepare(
        `INSERT INTO gov_pii_findings (source, table_name, column_name, table_schema, entity_type, confidence, matched_share, sample_count, masked_examples, method, sync_id, first_seen, last_seen)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (source, table_name, column_name) DO UPDATE SET table_schema = excluded.table_schema, entity_type = excluded.entity_type,
           confidence = excluded.confidence, matched_share = excluded.matched_share, sample_count = excluded.sample_count,
           masked_examples = excluded.masked_examples, method = excluded.method, sync_id = excluded.sync_id, last_seen = excluded.last_seen,
           first_seen = CASE WHEN gov_pii_findings.entity_type = excluded.entity_type THEN gov_pii_findings.first_seen ELSE excluded.first_seen END`,
      )
      .run(f.source, f.table, f.column, f.schema, f.entity_type, f.confidence, f.matched_share, f.sample_count, JSON.stringify(f.masked_examples), f.method, f.sync_id, f.at, f.at);
    return !existing || existing.entity_type !== f.entity_type;
  }

  /** drops findings of a table's columns that the latest scan no longer flags */
  pruneFindings(source: string, table: string, keep: string[]): void {
    const rows = this.db.prepare('SELECT column_name FROM gov_pii_findings WHERE source = ? AND table_name = ?').all(source, table) as Array<{ column_name: string }>;
    const del = this.db.prepare('DELETE FROM gov_pii_findings WHERE source = ? AND table_name = ? AND column_name = ?');
    for (const r of rows) if (!keep.includes(r.column_name)) del.run(source, table, r.column_name);
  }

  findings(filter: { source?: string; table?: string }): Array<PiiFinding & { schema: string; method: string; first_seen: string; last_seen: string }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.source) (where.push('source = ?'), args.push(filter.source));
    if (filter.table) (where.push('table_name = ?'), args.push(filter.table));
    const rows = this.db.prepare(`SELECT * FROM gov_pii_findings ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY source, table_name, column_name`).all(...args) as any[];
    return rows.map((r) => ({
      source: r.source,
      table: r.table_name,
      column: r.column_name,
      schema: r.table_schema,
      entity_type: r.entity_type,
      confidence: r.confidence,
      matched_share: r.matched_share,
      sample_count: r.sample_count,
      masked_examples: JSON.parse(r.masked_examples),
      method: r.method,
      first_seen: r.first_seen,
      last_seen: r.last_seen,
    }));
  }

  scanHash(source: string, table: string): string | undefined {
    return (this.db.prepare('SELECT schema_hash FROM gov_pii_scans WHERE source = ? AND table_name = ?').get(source, table) as { schema_hash: string } | undefined)?.schema_hash;
  }

  recordScan(source: string, table: string, hash: string, at: string): void {
    this.db
      .prepare('INSERT INTO gov_pii_scans (source, table_name, schema_hash, scanned_at) VALUES (?, ?, ?, ?) ON CONFLICT (source, table_name) DO UPDATE SET schema_hash = excluded.schema_hash, scanned_at = excluded.scanned_at')
      .run(source, table, hash, at);
  }

  recordSyncFailure(f: SyncFailure): void {
    this.db
      .prepare('INSERT INTO gov_sync_failures (source, sync_id, error, failed_at) VALUES (?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET sync_id = excluded.sync_id, error = excluded.error, failed_at = excluded.failed_at')
      .run(f.source, f.sync_id, f.error, f.failed_at);
  }

  clearSyncFailure(source: string): void {
    this.db.prepare('DELETE FROM gov_sync_failures WHERE source = ?').run(source);
  }

  syncFailures(): SyncFailure[] {
    return this.db.prepare('SELECT * FROM gov_sync_failures ORDER BY source').all() as SyncFailure[];
  }
}

function toDriftEvent(r: any): DriftEventRow {
  return {
    id: r.id,
    source: r.source,
    table: r.table_name,
    schema: r.table_schema,
    change_type: r.change_type,
    column: r.column_name,
    old_type: r.old_type,
    new_type: r.new_type,
    breaking: !!r.breaking,
    status: r.status,
    sync_id: r.sync_id,
    detected_at: r.detected_at,
    resolved_at: r.resolved_at,
  };
}
