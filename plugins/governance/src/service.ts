import crypto from 'node:crypto';
import { errors, type Clock, type EventBus, type Logger, type WarehouseClient } from '@basin/core';
import type { GovernanceSettings } from './config.js';
import { diffSchemas, isBreaking, type ColumnSchema, type DriftChange } from './drift.js';
import type { OverridesReader, PiiOverrideRecord } from './overrides.js';
import { scanTable } from './pii/scanner.js';
import type { PiiFinding } from './pii/types.js';
import { readTableSchema } from './schema-reader.js';
import type { GovernanceStore, SyncFailure } from './store.js';

/** What the sync engine hands each post-load hook (contract in docs/architecture.md). */
export interface PostLoad {
  source: string;
  syncId: string;
  tables: {
    name: string;
    schema: string;
    rows: number;
    /**
     * the columns of the data this sync loaded into the table: an incremental load keeps columns its
     * new files lack, so those are compared, not the table's. null: nothing was loaded (the schema did
     * not change); absent: compare the table as it is
     */
    loaded_columns?: string[] | null;
  }[];
  fullRefresh: boolean;
}

export interface TableDriftOutcome {
  table: string;
  outcome: 'baseline_saved' | 'unchanged' | 'auto_accepted' | 'attention';
  changes: DriftChange[];
}

export interface PiiFindingView extends Omit<PiiFinding, 'entity_type'> {
  entity_type: string;
  schema: string | null;
  method: string;
  status: 'detected' | 'confirmed' | 'not_pii';
  override: PiiOverrideRecord | null;
  first_seen: string | null;
  last_seen: string | null;
}

export interface SchemaHistoryEntry {
  table: string;
  sync_id: string | null;
  detected_at: string;
  changes: DriftChange[];
}

export interface SourceAttention {
  source: string;
  reasons: Array<'schema_drift' | 'pii' | 'sync_failed'>;
  schema_drift: { flagged: boolean; since: string | null; pending_changes: number; tables: string[] };
  pii: { columns: number; entity_types: string[] };
  sync_failure: { sync_id: string | null; error: string | null; failed_at: string } | null;
}

/**
 * Schema drift and PII detection after each load, plus the attention state the transform plugin
 * reads (SPEC "Schema drift and source attention"). Provided as the `governance` service.
 */
export class Governance {
  constructor(
    private readonly store: GovernanceStore,
    private readonly warehouse: WarehouseClient,
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly settings: GovernanceSettings,
    private readonly overrides: OverridesReader,
    /** the sync plugin's history of latest failed syncs, when installed (survives restarts); else failures seen on the bus */
    private readonly syncHistoryFailures: () => SyncFailure[] | null = () => null,
  ) {}

  private now(): string {
    return this.clock.now().toISOString();
  }

  /** Sources whose transformations must be skipped: breaking drift not yet accepted. */
  async attentionSources(): Promise<Set<string>> {
    return new Set(this.store.attention().map((a) => a.source));
  }

  /** The post-load hook: drift first (it gates transformations), then PII. Never fails the sync. */
  async afterLoad(c: PostLoad): Promise<void> {
    for (const t of c.tables) {
      if (this.settings.drift_enabled) {
        try {
          if (t.loaded_columns !== null) await this.checkDrift(c.source, t.schema, t.name, c.syncId, t.loaded_columns);
        } catch (err) {
          this.log.error({ err, source: c.source, table: t.name }, 'schema drift check failed');
        }
      }
      if (this.settings.pii_enabled) {
        try {
          await this.scanPii(c.source, t.schema, t.name, c.syncId, { force: t.rows > 0 || c.fullRefresh });
        } catch (err) {
          this.log.error({ err, source: c.source, table: t.name }, 'PII scan failed');
        }
      }
    }
  }

  async checkDrift(source: string, schema: string, table: string, syncId: string | null, loadedColumns?: string[]): Promise<TableDriftOutcome> {
    const inTable = await readTableSchema(this.warehouse, schema, table);
    if (!inTable) return { table, outcome: 'unchanged', changes: [] };
    const loaded = loadedColumns ? new Set(loadedColumns) : null;
    // a column the newly loaded files lack is removed from the source, though older rows keep it in the table
    const current = loaded ? inTable.filter((c) => loaded.has(c.name)) : inTable;
    const at = this.now();
    this.store.saveLoadedSchema(source, table, current, at);
    const baseline = this.store.baseline(source, table);
    if (!baseline) {
      this.store.saveBaseline({ source, table_name: table, table_schema: schema, columns: current, updated_at: at });
      return { table, outcome: 'baseline_saved', changes: [] };
    }
    const changes = diffSchemas(baseline.columns, current);
    if (!changes.length) return { table, outcome: 'unchanged', changes };
    if (!changes.some(isBreaking)) {
      this.store.transaction(() => {
        for (const ch of changes) this.store.addDriftEvent({ source, table, schema, ...changes0(ch), breaking: false, status: 'auto_accepted', sync_id: syncId, detected_at: at });
        this.store.saveBaseline({ source, table_name: table, table_schema: schema, columns: current, updated_at: at });
      });
      this.log.info({ source, table, added: changes.map((c) => c.column) }, 'new columns accepted into the schema baseline');
      return { table, outcome: 'auto_accepted', changes };
    }
    // breaking: flag the source, keep the baseline until someone accepts; re-syncs do not repeat known changes
    const fresh = changes.filter((ch) => !this.store.hasPending(source, table, ch));
    this.store.transaction(() => {
      for (const ch of fresh) this.store.addDriftEvent({ source, table, schema, ...changes0(ch), breaking: isBreaking(ch), status: 'pending', sync_id: syncId, detected_at: at });
      this.store.setAttention({ source, reason: 'schema_drift', sync_id: syncId, since: at });
    });
    if (fresh.length) {
      this.log.warn({ source, table, changes: fresh.map((c) => `${c.change_type}:${c.column}`) }, 'breaking schema drift; transformations for this source are paused until it is accepted');
      void this.events.emit('schema_drift_detected', { source, table, changes: fresh, sync_id: syncId });
    }
    return { table, outcome: 'attention', changes };
  }

  /** Re-reads every known table of the source, saves it as the baseline and clears the flag. */
  async accept(source: string): Promise<{ source: string; cleared: boolean; accepted_changes: number; tables: Array<{ table: string; columns: ColumnSchema[] | null }> }> {
    if (!this.store.knowsSource(source)) throw errors.notFound(`A schema baseline for source "${source}"`, { source });
    const known = new Map<string, string>();
    for (const b of this.store.baselines(source)) known.set(b.table_name, b.table_schema);
    for (const e of this.store.pendingDrift(source)) known.set(e.table, e.schema);
    // the schema the latest load delivered (without columns only older rows still have), else the table's
    const read = await Promise.all(
      [...known].map(async ([table, schema]) => {
        const inTable = await readTableSchema(this.warehouse, schema, table);
        const loaded = this.store.loadedSchema(source, table);
        return { table, schema, columns: inTable && loaded ? inTable.filter((c) => loaded.some((l) => l.name === c.name)) : inTable };
      }),
    );
    const at = this.now();
    const { cleared, resolved } = this.store.transaction(() => {
      for (const t of read) {
        if (t.columns) this.store.saveBaseline({ source, table_name: t.table, table_schema: t.schema, columns: t.columns, updated_at: at });
        else this.store.deleteBaseline(source, t.table);
      }
      return { resolved: this.store.resolvePending(source, at), cleared: this.store.clearAttention(source) };
    });
    this.log.info({ source, accepted_changes: resolved }, 'schema drift accepted');
    return { source, cleared, accepted_changes: resolved, tables: read.map((t) => ({ table: t.table, columns: t.columns })) };
  }

  /** Samples a table and stores PII findings; skips a table whose data and schema did not change unless forced. */
  async scanPii(source: string, schema: string, table: string, syncId: string | null, opts: { force?: boolean } = {}): Promise<PiiFinding[]> {
    const cols = await readTableSchema(this.warehouse, schema, table);
    if (!cols) return [];
    const hash = crypto.createHash('sha256').update(JSON.stringify(cols)).digest('hex');
    if (!opts.force && this.store.scanHash(source, table) === hash) return [];
    const scans = await scanTable(this.warehouse, schema, table, this.settings.pii_sample_rows, {
      minMatchShare: this.settings.pii_min_match_share,
      minConfidence: this.settings.pii_min_confidence,
    }, this.settings.pii_sample_read_rows);
    const at = this.now();
    const overrides = this.overrides.all();
    const fresh: PiiFinding[] = [];
    this.store.transaction(() => {
      for (const s of scans) {
        const finding: PiiFinding = { source, table, column: s.column, entity_type: s.entity_type, confidence: s.confidence, matched_share: s.matched_share, sample_count: s.sample_count, masked_examples: s.masked_examples };
        const isNew = this.store.upsertFinding({ ...finding, schema, method: s.method, sync_id: syncId, at });
        if (isNew && this.overrides.lookup(overrides, source, table, s.column)?.status !== 'not_pii') fresh.push(finding);
      }
      this.store.pruneFindings(source, table, scans.map((s) => s.column));
      this.store.recordScan(source, table, hash, at);
    });
    if (fresh.length) {
      this.log.info({ source, table, columns: fresh.map((f) => `${f.column}:${f.entity_type}`) }, 'PII detected');
      void this.events.emit('pii_detected', { source, table, findings: fresh });
    }
    return fresh;
  }

  /** Findings with overrides applied: `not_pii` hides a finding (unless asked), `pii` confirms or adds one. */
  piiFindings(filter: { source?: string; table?: string; includeDismissed?: boolean }): PiiFindingView[] {
    const overrides = this.overrides.all();
    const out: PiiFindingView[] = [];
    const seen = new Set<string>();
    for (const f of this.store.findings(filter)) {
      const o = this.overrides.lookup(overrides, f.source, f.table, f.column) ?? null;
      seen.add(key(f.source, f.table, f.column));
      const status = o?.status === 'not_pii' ? 'not_pii' : o?.status === 'pii' ? 'confirmed' : 'detected';
      if (status === 'not_pii' && !filter.includeDismissed) continue;
      out.push({ ...f, status, override: o });
    }
    for (const o of overrides) {
      if (o.status !== 'pii' || seen.has(key(o.source, o.table, o.column))) continue;
      if ((filter.source && o.source !== filter.source) || (filter.table && o.table !== filter.table)) continue;
      seen.add(key(o.source, o.table, o.column));
      out.push({ source: o.source, table: o.table, column: o.column, schema: null, entity_type: 'unspecified', confidence: 1, matched_share: 0, sample_count: 0, masked_examples: [], method: 'override', status: 'confirmed', override: o, first_seen: null, last_seen: null });
    }
    return out;
  }

  overridesList(): PiiOverrideRecord[] {
    return this.overrides.all();
  }

  driftEvents(filter: { source?: string; table?: string; limit: number; offset: number }) {
    return this.store.driftEvents(filter);
  }

  /**
   * The schema history of a source (the only one Basin keeps): its changes grouped per table and
   * sync, oldest first, the latest `limit` groups.
   */
  schemaHistory(source: string, limit: number): SchemaHistoryEntry[] {
    const groups: SchemaHistoryEntry[] = [];
    for (const e of this.store.sourceHistory(source)) {
      const last = groups[groups.length - 1];
      const change = { change_type: e.change_type, column: e.column, old_type: e.old_type, new_type: e.new_type };
      if (last && last.table === e.table && last.sync_id === e.sync_id && last.detected_at === e.detected_at) last.changes.push(change);
      else groups.push({ table: e.table, sync_id: e.sync_id, detected_at: e.detected_at, changes: [change] });
    }
    return groups.slice(-limit);
  }

  attention(): SourceAttention[] {
    const by = new Map<string, SourceAttention>();
    const get = (source: string) => {
      let a = by.get(source);
      if (!a) by.set(source, (a = { source, reasons: [], schema_drift: { flagged: false, since: null, pending_changes: 0, tables: [] }, pii: { columns: 0, entity_types: [] }, sync_failure: null }));
      return a;
    };
    for (const f of this.store.attention()) {
      const a = get(f.source);
      const pending = this.store.pendingDrift(f.source);
      a.reasons.push('schema_drift');
      a.schema_drift = { flagged: true, since: f.since, pending_changes: pending.length, tables: [...new Set(pending.map((p) => p.table))].sort() };
    }
    const pii = new Map<string, PiiFindingView[]>();
    for (const f of this.piiFindings({})) pii.set(f.source, [...(pii.get(f.source) ?? []), f]);
    for (const [source, list] of pii) {
      const a = get(source);
      a.reasons.push('pii');
      a.pii = { columns: list.length, entity_types: [...new Set(list.map((f) => f.entity_type))].sort() };
    }
    for (const s of this.syncHistoryFailures() ?? this.store.syncFailures()) {
      const a = get(s.source);
      a.reasons.push('sync_failed');
      a.sync_failure = { sync_id: s.sync_id, error: s.error, failed_at: s.failed_at };
    }
    return [...by.values()].sort((x, y) => x.source.localeCompare(y.source));
  }

  recordSyncFailure(source: string, syncId: string | null, error: string | null): void {
    this.store.recordSyncFailure({ source, sync_id: syncId, error, failed_at: this.now() });
  }

  recordSyncSuccess(source: string): void {
    this.store.clearSyncFailure(source);
  }
}

const key = (s: string, t: string, c: string) => JSON.stringify([s, t, c]);
const changes0 = (ch: DriftChange) => ({ change_type: ch.change_type, column: ch.column, old_type: ch.old_type, new_type: ch.new_type });
