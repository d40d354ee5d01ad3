// Trino + Iceberg as a warehouse (issue 22). Loads: DuckDB writes the staged file as Parquet into the
// lake folder Trino reads as `local:///`; a Hive table of the staging catalog is declared over it
// (readers never see that catalog); the swap is ONE Trino statement per resource that reads it
// (CREATE OR REPLACE TABLE ... AS SELECT for replace, INSERT ... SELECT for append, MERGE INTO for
// merge: only the staged rows are written, the table's other data files stay), i.e. one Iceberg
// commit per resource (one more when rows of forgotten files are deleted first). Iceberg has no multi-table transactions, so a swap of several
// resources is made all-or-nothing by a write-ahead intent: before the first table changes, the
// current snapshot of every target is recorded in _basin_meta.swap_intents; the commit marker with
// the cursor state is one INSERT after every resource swapped (the commit point); a swap that fails,
// or a process killed in between, is rolled back to the recorded snapshots (at once, or by
// dropStaleStaging at the next start). Reads go through the read-only Trino user.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  duckdbFileScan,
  forgetList,
  WAREHOUSE_META_SCHEMA as META,
  WAREHOUSE_SCHEMA_PREFIX_ENV,
  WAREHOUSE_STAGING_PREFIX,
  type ColumnInfo,
  type DbtTarget,
  type QueryOptions,
  type QueryResult,
  type ReadOnlyConnection,
  type StagedFile,
  type StageRequest,
  type SwappedTable,
  type SwapRequest,
  type TableInfo,
  type UnloadFilter,
  type WarehouseCapabilities,
  type WarehouseClient,
  type WarehouseHealth,
} from '@basin/core';
import { ident, literal, TrinoLogin, TrinoQueryError } from './trino-login.js';
import { finalColumn, fromStaging, jsonSafe, stagedColumn } from './types.js';
import { DBT_TRINO_REQUIREMENTS, dbtTrinoVenv } from './install.js';

export interface TrinoSettings {
  /** https://host:port or http://host:port of the coordinator */
  url: string;
  /** the Iceberg catalog holding the warehouse */
  catalog: string;
  /** a Hive catalog over the same storage, for Parquet staging tables (the writer only) */
  staging_catalog: string;
  /** the folder both catalogs see as `local:///` (shared storage for a cluster) */
  lake_dir: string;
  schema_prefix: string;
  user: string;
  password_env: string;
  read_user: string;
  read_password_env: string;
  /** a PEM file of the CA (or self-signed certificate) to trust for https; empty: the system's */
  ca_file: string;
}

/** the SQLAlchemy dialect companions need (pure Python, on PyPI; the extra pulls SQLAlchemy where the venv has none) */
export const TRINO_SQLALCHEMY_DRIVERS = ['trino[sqlalchemy]==0.336.0'] as const;

/** where staged Parquet goes inside the lake folder */
const STAGE_FOLDER = '_basin_stage';

export const trinoCapabilities = (catalog: string, prefix: string): WarehouseCapabilities => ({
  type: 'trino',
  dialect: 'trino',
  bulkFormats: ['parquet', 'csv'],
  unloadFormats: ['parquet', 'csv'],
  merge: true,
  transactionalDdl: false,
  servingCopy: false,
  approxDistinct: (expr) => `approx_distinct(${expr})`,
  // the first rows Trino reads (splits in parallel): no full scan; not random, like PostgreSQL's
  sample: (table, rows) => `(SELECT * FROM ${table} LIMIT ${Math.max(1, Math.floor(rows))}) AS basin_sample`,
  quoteIdent: ident,
  quoteLiteral: literal,
  qualify: (schema, table) => `${ident(catalog)}.${ident(prefix + schema)}.${ident(table)}`,
});

class MissingSecretError extends Error {}

interface Staged {
  /** the Hive table name (same as the staging name) and its DuckDB-side column types */
  columns: Array<{ name: string; duckType: string; staged: string }>;
  rows: number;
}

export class TrinoWarehouseClient implements WarehouseClient {
  readonly capabilities: WarehouseCapabilities;
  private writer: TrinoLogin | null = null;
  private reader: TrinoLogin | null = null;
  private metaReady = false;
  private readonly schemas = new Set<string>();
  private readonly stagingSchemas = new Set<string>();
  /** what loadStaged learnt about its staging tables (saves a catalog round trip in the swap) */
  private readonly staged = new Map<string, { columns: Array<{ name: string; duckType: string }>; rows: number }>();

  constructor(
    readonly settings: TrinoSettings,
    private readonly env: (name: string) => string | undefined,
  ) {
    this.capabilities = trinoCapabilities(settings.catalog, settings.schema_prefix);
  }

  get location(): string {
    const u = new URL(this.settings.url);
    return `${u.host}/${this.settings.catalog}`;
  }

  /** a Basin schema's name in Trino (`schema_prefix` applied) */
  schemaName(schema: string): string {
    return `${this.settings.schema_prefix}${schema}`;
  }

  private table(schema: string, table: string): string {
    return `${ident(this.settings.catalog)}.${ident(this.schemaName(schema))}.${ident(table)}`;
  }

  private stagingTable(schema: string, staging: string): string {
    return `${ident(this.settings.staging_catalog)}.${ident(this.schemaName(schema))}.${ident(staging)}`;
  }

  private stageDir(schema: string, staging: string): string {
    return path.join(this.settings.lake_dir, STAGE_FOLDER, this.schemaName(schema), staging);
  }

  private secret(name: string): string {
    const v = this.env(name);
    if (!v) throw new MissingSecretError(`the Trino warehouse needs a password in the environment variable ${name} (set it, or put it in the project's .env)`);
    return v;
  }

  private login(user: string, passwordEnv: string): TrinoLogin {
    const ca = this.settings.ca_file ? fs.readFileSync(this.settings.ca_file, 'utf8') : undefined;
    // over plain http Trino refuses passwords: a coordinator without authentication gets the user only
    const password = this.settings.url.startsWith('https:') ? this.secret(passwordEnv) : undefined;
    return new TrinoLogin({ server: this.settings.url, user, password, catalog: this.settings.catalog, ca });
  }

  /** connects lazily (first statement): a missing password or a stopped coordinator shows in health(), not as a failed start */
  async open(): Promise<void> {}

  async close(): Promise<void> {
    this.writer = null;
    this.reader = null;
    this.metaReady = false;
    this.schemas.clear();
    this.stagingSchemas.clear();
    this.staged.clear();
  }

  private w(): TrinoLogin {
    return (this.writer ??= this.login(this.settings.user, this.settings.password_env));
  }

  private r(): TrinoLogin {
    return (this.reader ??= this.login(this.settings.read_user, this.settings.read_password_env));
  }

  async ensureSchema(schema: string): Promise<void> {
    if (this.schemas.has(schema)) return;
    await this.w().run(`CREATE SCHEMA IF NOT EXISTS ${ident(this.settings.catalog)}.${ident(this.schemaName(schema))}`);
    this.schemas.add(schema);
  }

  private async ensureMeta(): Promise<void> {
    if (this.metaReady) return;
    await this.ensureSchema(META);
    await this.w().run(`CREATE TABLE IF NOT EXISTS ${this.table(META, 'syncs')} (sync_id varchar, source varchar, cursor_state varchar, committed_at timestamp(6) with time zone)`);
    await this.w().run(
      `CREATE TABLE IF NOT EXISTS ${this.table(META, 'swap_intents')} (sync_id varchar, source varchar, schema_name varchar, table_name varchar, snapshot_id bigint, created_at timestamp(6) with time zone)`,
    );
    this.metaReady = true;
  }

  /**
   * Writes the staged file as Parquet with DuckDB into the lake folder and declares a Hive table over
   * it in the staging catalog. Nothing in the warehouse catalog changes.
   */
  async loadStaged(req: StageRequest): Promise<{ rows: number }> {
    const dir = this.stageDir(req.schema, req.staging);
    await this.dropStagingTable(req.schema, req.staging);
    fs.mkdirSync(dir, { recursive: true });
    const staged = await writeParquet(req, path.join(dir, 'part-0.parquet'));
    if (!this.stagingSchemas.has(req.schema)) {
      await this.w().run(`CREATE SCHEMA IF NOT EXISTS ${ident(this.settings.staging_catalog)}.${ident(this.schemaName(req.schema))}`);
      this.stagingSchemas.add(req.schema);
    }
    const cols = staged.columns.map((c) => `${ident(c.name)} ${c.staged}`).join(', ');
    const location = `local:///${STAGE_FOLDER}/${this.schemaName(req.schema)}/${req.staging}`;
    // the DuckDB types travel in the table comment: the swap needs them to type instants (with time zone)
    const comment = JSON.stringify(staged.columns.map((c) => [c.name, c.duckType]));
    await this.w().run(`CREATE TABLE ${this.stagingTable(req.schema, req.staging)} (${cols}) COMMENT ${literal(comment)} WITH (external_location = ${literal(location)}, format = 'PARQUET')`);
    this.staged.set(`${req.schema}.${req.staging}`, { columns: staged.columns.map(({ name, duckType }) => ({ name, duckType })), rows: staged.rows });
    return { rows: staged.rows };
  }

  private async stagedColumns(schema: string, staging: string): Promise<Array<{ name: string; duckType: string }> | null> {
    const known = this.staged.get(`${schema}.${staging}`);
    if (known) return known.columns;
    const rows = await this.w().rows<{ comment: string | null }>(
      `SELECT comment FROM system.metadata.table_comments WHERE catalog_name = ${literal(this.settings.staging_catalog)} AND schema_name = ${literal(this.schemaName(schema))} AND table_name = ${literal(staging)}`,
    );
    if (!rows.length) return null;
    const pairs = JSON.parse(rows[0]!.comment ?? '[]') as Array<[string, string]>;
    return pairs.map(([name, duckType]) => ({ name, duckType }));
  }

  private async dropStagingTable(schema: string, staging: string): Promise<void> {
    await this.w().run(`DROP TABLE IF EXISTS ${this.stagingTable(schema, staging)}`).catch((e) => {
      if (!(e instanceof TrinoQueryError && e.errorName === 'SCHEMA_NOT_FOUND')) throw e;
    });
    fs.rmSync(this.stageDir(schema, staging), { recursive: true, force: true });
    this.staged.delete(`${schema}.${staging}`);
  }

  /** the id of a table's current snapshot as decimal text (64-bit: a JS number would round it) */
  private async currentSnapshot(schema: string, table: string): Promise<string | null | 'absent'> {
    try {
      const rows = await this.w().rows<{ snapshot_id: string }>(`SELECT CAST(snapshot_id AS varchar) AS snapshot_id FROM ${ident(this.settings.catalog)}.${ident(this.schemaName(schema))}.${ident(`${table}$refs`)} WHERE name = 'main'`);
      return rows[0]?.snapshot_id ?? null;
    } catch (e) {
      if (e instanceof TrinoQueryError && (e.errorName === 'TABLE_NOT_FOUND' || e.errorName === 'SCHEMA_NOT_FOUND')) return 'absent';
      throw e;
    }
  }

  async swap(req: SwapRequest): Promise<SwappedTable[]> {
    await this.ensureMeta();
    // every staging table must exist before any table changes
    const plans: Array<{ res: SwapRequest['resources'][number]; columns: Array<{ name: string; duckType: string }> }> = [];
    for (const res of req.resources) {
      const columns = await this.stagedColumns(res.schema, res.staging);
      if (!columns) throw new Error(`staging table ${res.schema}.${res.staging} does not exist; nothing was swapped`);
      if (res.disposition === 'merge' && !res.primaryKey?.length) throw new Error(`merge into ${res.schema}.${res.table} needs a primary key`);
      plans.push({ res, columns });
    }
    // write-ahead intent: the snapshot each target is at now
    const intents: string[] = [];
    for (const { res } of plans) {
      const snap = await this.currentSnapshot(res.schema, res.table);
      const id = snap === 'absent' ? 'NULL' : /^-?\d+$/.test(snap ?? '') ? snap! : '-1';
      intents.push(`(${literal(req.syncId)}, ${literal(req.source)}, ${literal(res.schema)}, ${literal(res.table)}, CAST(${id} AS bigint), current_timestamp)`);
    }
    await this.w().run(`INSERT INTO ${this.table(META, 'swap_intents')} VALUES ${intents.join(', ')}`);
    const out: SwappedTable[] = [];
    try {
      for (const { res, columns } of plans) {
        await this.ensureSchema(res.schema);
        const replaced = await this.swapOne(res, columns);
        const known = replaced ? this.staged.get(`${res.schema}.${res.staging}`)?.rows : undefined;
        const rows = known ?? Number((await this.w().run(`SELECT count(*) FROM ${this.table(res.schema, res.table)}`)).rows[0]![0]);
        out.push({ schema: res.schema, table: res.table, rows });
      }
      // the commit point: one Iceberg commit with the marker and the cursor state
      const cursor = req.cursor === undefined ? 'NULL' : literal(JSON.stringify(req.cursor));
      await this.w().run(`INSERT INTO ${this.table(META, 'syncs')} VALUES (${literal(req.syncId)}, ${literal(req.source)}, ${cursor}, current_timestamp)`);
    } catch (e) {
      try {
        await this.rollbackIntents(req.syncId);
      } catch (rollback) {
        throw new Error(`${(e as Error).message}; rolling the swap back failed too (${(rollback as Error).message}); the next start retries the rollback`);
      }
      throw e;
    }
    // the intents of a committed sync stay (they are ignored once its marker exists): deleting them
    // would cost one more Iceberg commit per swap
    for (const { res } of plans) await this.dropStagingTable(res.schema, res.staging);
    return out;
  }

  /** swaps one resource in one Iceberg commit (after widening for drift); true when it replaced the table */
  private async swapOne(res: SwapRequest['resources'][number], columns: Array<{ name: string; duckType: string }>): Promise<boolean> {
    const target = this.table(res.schema, res.table);
    const staging = this.stagingTable(res.schema, res.staging);
    const select = (names: string[]) =>
      names
        .map((n) => {
          const c = columns.find((x) => x.name === n);
          return c ? `${fromStaging(ident(n), c.duckType)} AS ${ident(n)}` : `NULL AS ${ident(n)}`;
        })
        .join(', ');
    // replace needs no look at the target: CREATE OR REPLACE makes it whatever it was
    const existing = res.disposition === 'replace' ? null : await this.describeTable(res.schema, res.table);
    if (!existing) {
      await this.w().run(`CREATE OR REPLACE TABLE ${target} AS SELECT ${select(columns.map((c) => c.name))} FROM ${staging}`);
      return true;
    }
    // drift: new columns widen the table first (old rows read NULL)
    for (const c of columns) {
      if (existing.some((x) => x.name === c.name)) continue;
      const staged = stagedColumn('x', c.duckType).trino;
      await this.w().run(`ALTER TABLE ${target} ADD COLUMN ${ident(c.name)} ${finalColumn(c.duckType, staged)}`);
    }
    const names = (await this.describeTable(res.schema, res.table))!.map((c) => c.name);
    const present = names.filter((n) => columns.some((c) => c.name === n));
    // rows of forgotten files go first (one more Iceberg commit; the intent's snapshot covers it)
    if (res.forget?.values.length) await this.w().run(`DELETE FROM ${target} WHERE ${ident(res.forget.column)} IN (${forgetList(res.forget.values, literal)})`);
    if (res.disposition === 'append') {
      await this.w().run(`INSERT INTO ${target} (${present.map(ident).join(', ')}) SELECT ${select(present)} FROM ${staging}`);
      return false;
    }
    const key = res.primaryKey!;
    const on = key.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' AND ');
    const set = present.filter((n) => !key.includes(n)).map((n) => `${ident(n)} = s.${ident(n)}`);
    await this.w().run(
      `MERGE INTO ${target} t USING (SELECT ${select(present)} FROM ${staging}) s ON (${on})` +
        (set.length ? ` WHEN MATCHED THEN UPDATE SET ${set.join(', ')}` : '') +
        ` WHEN NOT MATCHED THEN INSERT (${present.map(ident).join(', ')}) VALUES (${present.map((n) => `s.${ident(n)}`).join(', ')})`,
    );
    return false;
  }

  /** puts every table a sync's swap touched back at the snapshot its intent recorded, then forgets the intent */
  private async rollbackIntents(syncId: string): Promise<void> {
    const rows = await this.w().rows<{ schema_name: string; table_name: string; snapshot_id: string | null }>(
      `SELECT schema_name, table_name, CAST(snapshot_id AS varchar) AS snapshot_id FROM ${this.table(META, 'swap_intents')} WHERE sync_id = ${literal(syncId)}`,
    );
    for (const r of rows) {
      const target = this.table(r.schema_name, r.table_name);
      // null: the swap created the table; -1: it existed without a snapshot (empty), nothing to restore
      if (r.snapshot_id === null) await this.w().run(`DROP TABLE IF EXISTS ${target}`);
      else if (r.snapshot_id !== '-1') {
        const now = await this.currentSnapshot(r.schema_name, r.table_name);
        if (now !== r.snapshot_id) await this.w().run(`ALTER TABLE ${target} EXECUTE rollback_to_snapshot(${r.snapshot_id})`);
      }
    }
    await this.w().run(`DELETE FROM ${this.table(META, 'swap_intents')} WHERE sync_id = ${literal(syncId)}`);
  }

  async cursorState(source: string): Promise<unknown> {
    await this.ensureMeta();
    const rows = await this.w().rows<{ cursor_state: string | null }>(`SELECT cursor_state FROM ${this.table(META, 'syncs')} WHERE source = ${literal(source)} ORDER BY committed_at DESC LIMIT 1`);
    const v = rows[0]?.cursor_state;
    return v == null ? null : JSON.parse(v);
  }

  async committedSyncs(syncIds: string[]): Promise<Set<string>> {
    if (!syncIds.length) return new Set();
    await this.ensureMeta();
    const rows = await this.w().rows<{ sync_id: string }>(`SELECT sync_id FROM ${this.table(META, 'syncs')} WHERE sync_id IN (${syncIds.map(literal).join(', ')})`);
    return new Set(rows.map((r) => r.sync_id));
  }

  /**
   * Start-up clean-up: rolls back swaps whose commit marker never came (a process killed mid-swap),
   * then drops the staging tables (and their Parquet) killed or failed loads left. Returns how many
   * staging tables it dropped.
   */
  async dropStaleStaging(): Promise<number> {
    await this.ensureMeta();
    const pending = await this.w().rows<{ sync_id: string }>(
      `SELECT DISTINCT i.sync_id FROM ${this.table(META, 'swap_intents')} i WHERE NOT EXISTS (SELECT 1 FROM ${this.table(META, 'syncs')} s WHERE s.sync_id = i.sync_id)`,
    );
    for (const p of pending) await this.rollbackIntents(p.sync_id);
    const prefix = this.settings.schema_prefix;
    const stale = await this.w().rows<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM ${ident(this.settings.staging_catalog)}.information_schema.tables WHERE starts_with(table_schema, ${literal(prefix)}) AND starts_with(table_name, ${literal(WAREHOUSE_STAGING_PREFIX)})`,
    );
    for (const s of stale) await this.dropStagingTable(s.table_schema.slice(prefix.length), s.table_name);
    return stale.length;
  }

  async query(sql: string, opts: QueryOptions): Promise<QueryResult> {
    try {
      const r = await this.r().run(sql, { timeoutMs: opts.timeoutMs, maxRows: opts.maxRows });
      return { columns: r.columns, rows: r.rows.map((row) => row.map(jsonSafe)), truncated: r.truncated };
    } catch (e) {
      if (e instanceof TrinoQueryError && e.errorName === 'EXCEEDED_TIME_LIMIT') throw new TrinoQueryError(`the query ran longer than ${opts.timeoutMs} ms and was cancelled`, e.errorName, e.errorType);
      throw e;
    }
  }

  async execute(sql: string): Promise<void> {
    await this.w().run(sql);
  }

  async listTables(schema?: string): Promise<TableInfo[]> {
    const prefix = this.settings.schema_prefix;
    // `system` is the JDBC catalog's own bookkeeping namespace as the Iceberg connector lists it
    const where = [`starts_with(table_schema, ${literal(prefix)})`, `table_schema NOT IN ('information_schema', 'system')`, `table_schema <> ${literal(this.schemaName(META))}`];
    if (schema !== undefined) where.push(`table_schema = ${literal(this.schemaName(schema))}`);
    const rows = await this.r().rows<{ table_schema: string; table_name: string; table_type: string }>(
      `SELECT DISTINCT table_schema, table_name, table_type FROM ${ident(this.settings.catalog)}.information_schema.tables WHERE ${where.join(' AND ')} ORDER BY table_schema, table_name`,
    );
    return rows.map((x) => ({ schema: x.table_schema.slice(prefix.length), name: x.table_name, kind: x.table_type === 'VIEW' ? 'view' : 'table' }));
  }

  async describeTable(schema: string, table: string): Promise<ColumnInfo[] | null> {
    const login = this.writer ?? this.r();
    const rows = await login.rows<{ column_name: string; data_type: string; is_nullable: string }>(
      `SELECT column_name, data_type, is_nullable FROM ${ident(this.settings.catalog)}.information_schema.columns WHERE table_schema = ${literal(this.schemaName(schema))} AND table_name = ${literal(table)} ORDER BY ordinal_position`,
    );
    if (!rows.length) return null;
    return rows.map((r) => ({ name: r.column_name, type: r.data_type, nullable: r.is_nullable === 'YES' }));
  }

  /** Trino writes the table as Parquet through a Hive table in the lake; DuckDB makes the one file asked for. */
  async unload(schema: string, table: string, file: StagedFile, filter?: UnloadFilter): Promise<{ rows: number }> {
    const name = `${WAREHOUSE_STAGING_PREFIX}unload__${crypto.randomBytes(4).toString('hex')}`;
    const dir = this.stageDir(schema, name);
    await this.w().run(`CREATE SCHEMA IF NOT EXISTS ${ident(this.settings.staging_catalog)}.${ident(this.schemaName(schema))}`);
    const cols = (await this.describeTable(schema, table)) ?? [];
    const select = cols.map((c) => (/with time zone/.test(c.type) ? `CAST(${ident(c.name)} AT TIME ZONE 'UTC' AS timestamp(6)) AS ${ident(c.name)}` : ident(c.name))).join(', ');
    try {
      await this.w().run(
        `CREATE TABLE ${this.stagingTable(schema, name)} WITH (external_location = ${literal(`local:///${STAGE_FOLDER}/${this.schemaName(schema)}/${name}`)}, format = 'PARQUET') AS SELECT ${select} FROM ${this.table(schema, table)}${filter ? ` WHERE ${ident(filter.column)} = ${literal(filter.equals)}` : ''}`,
      );
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      try {
        const opts = file.format === 'csv' ? `(FORMAT csv, HEADER ${file.header === false ? 'false' : 'true'}, DELIMITER ${literal(file.delimiter ?? ',')})` : '(FORMAT parquet)';
        const files = fs.readdirSync(dir).filter((f) => !f.startsWith('.'));
        const scan = files.length ? `read_parquet([${files.map((f) => literal(path.join(dir, f))).join(', ')}])` : `(SELECT ${cols.map((x) => `NULL AS ${ident(x.name)}`).join(', ')} LIMIT 0)`;
        const r = await c.runAndReadAll(`COPY (SELECT * FROM ${scan}) TO ${literal(file.path)} ${opts}`);
        return { rows: Number(r.getRows()[0]?.[0] ?? 0) };
      } finally {
        c.closeSync();
        db.closeSync();
      }
    } finally {
      await this.dropStagingTable(schema, name);
    }
  }

  dbtTarget(): DbtTarget {
    const u = new URL(this.settings.url);
    const https = u.protocol === 'https:';
    const profile: Record<string, unknown> = {
      type: 'trino',
      method: https ? 'ldap' : 'none',
      user: this.settings.user,
      host: u.hostname,
      port: Number(u.port || (https ? 443 : 80)),
      database: this.settings.catalog,
      schema: this.schemaName('main'),
      http_scheme: https ? 'https' : 'http',
      threads: 2,
    };
    // generated sources files name `<schema_prefix>raw_<source>` through this variable
    const env: Record<string, string> = { [WAREHOUSE_SCHEMA_PREFIX_ENV]: this.settings.schema_prefix };
    if (https) {
      profile.password = `{{ env_var('${this.settings.password_env}') }}`;
      env[this.settings.password_env] = this.secret(this.settings.password_env);
      if (this.settings.ca_file) {
        profile.cert = this.settings.ca_file;
        // requests lets REQUESTS_CA_BUNDLE in the environment override a session's own `verify`
        // (psf/requests#3829), so dbt's environment names the same file
        env.REQUESTS_CA_BUNDLE = this.settings.ca_file;
      }
    }
    // the transform plugin runs dbt from this venv (dbt-trino), not its own dbt-duckdb one
    return { adapter: 'trino', requirements: DBT_TRINO_REQUIREMENTS, profile, env, venv: dbtTrinoVenv };
  }

  /** Superset and marimo connect as the read-only user through the trino package's SQLAlchemy dialect */
  readOnlyConnection(): ReadOnlyConnection {
    const u = new URL(this.settings.url);
    const https = u.protocol === 'https:';
    return {
      sqlalchemyUrl: `trino://${encodeURIComponent(this.settings.read_user)}@${u.hostname}:${Number(u.port || (https ? 443 : 80))}/${encodeURIComponent(this.settings.catalog)}`,
      // `verify` is requests' own: a CA file, or true for the system's CAs
      connectArgs: { http_scheme: https ? 'https' : 'http', ...(https ? { verify: this.settings.ca_file || true } : {}) },
      passwordEnv: this.settings.read_password_env,
      // over plain http Trino refuses passwords (as for the client's own reads)
      password: https ? this.env(this.settings.read_password_env) : undefined,
      drivers: TRINO_SQLALCHEMY_DRIVERS,
      schemaName: (schema) => this.schemaName(schema),
    };
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async publish(): Promise<void> {
    // readers query the engine itself: nothing to publish
  }

  async health(): Promise<WarehouseHealth> {
    const started = performance.now();
    try {
      const rows = await this.r().rows<{ v: string }>('SELECT node_version AS v FROM system.runtime.nodes WHERE coordinator LIMIT 1');
      return { type: 'trino', ok: true, version: `Trino ${rows[0]?.v ?? ''}`.trim(), latencyMs: Math.round(performance.now() - started), location: this.location };
    } catch (e) {
      const message = e instanceof MissingSecretError ? e.message : `cannot reach Trino at ${this.location}: ${(e as Error).message}; is the coordinator running (basin warehouse up starts a local one)?`;
      return { type: 'trino', ok: false, message, location: this.location };
    }
  }
}

/** DuckDB reads the staged file (CSV typed by `columns`, or Parquet) and writes the Parquet Trino reads. */
async function writeParquet(req: StageRequest, out: string): Promise<Staged> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const scan = duckdbFileScan(req.file, req.columns);
    const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${scan}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>;
    const columns = described.map((d) => {
      const s = stagedColumn(ident(d.column_name), d.column_type);
      return { name: d.column_name, duckType: d.column_type, staged: s.trino, select: `${s.select} AS ${ident(d.column_name)}` };
    });
    const r = await c.runAndReadAll(`COPY (SELECT ${columns.map((x) => x.select).join(', ')} FROM ${scan}) TO ${literal(out)} (FORMAT parquet, COMPRESSION zstd)`);
    return { columns: columns.map(({ name, duckType, staged }) => ({ name, duckType, staged })), rows: Number(r.getRows()[0]?.[0] ?? 0) };
  } finally {
    c.closeSync();
    db.closeSync();
  }
}
