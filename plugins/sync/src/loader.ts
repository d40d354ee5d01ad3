import fs from 'node:fs';
import path from 'node:path';
import { ident, literal, type Conn, type Warehouse } from '@basin/core';
import { SourceError, type ColumnSpec, type ReadItem, type ResourceSpec } from '@basin/sdk';
import { detectDelimiter, findCsvProblem } from './csv-diagnose.js';
import { rawSchema } from './source-config.js';

export const STAGING_PREFIX = '_basin_staging__';
export const META_SCHEMA = '_basin_meta';
/** records are written to an NDJSON batch file of this many rows, then bulk-read by DuckDB */
const RECORD_BATCH = 50_000;
/** files per read_* call (one statement reads them in parallel with union_by_name) */
const FILE_BATCH = 500;

type FileItem = Extract<ReadItem, { kind: 'file' }>;

interface ResourceLoad {
  name: string;
  spec: ResourceSpec | undefined;
  staging: string;
  created: boolean;
  columns: Map<string, string>;
  rows: number;
  files: FileItem[];
  records: Record<string, unknown>[];
  forget: Set<string>;
}

export interface LoadedTable {
  name: string;
  schema: string;
  rows: number;
  /** rows this sync added */
  loaded: number;
  columns: ColumnSpec[];
}

export interface LoadHooks {
  warn(msg: string): void;
  info(msg: string): void;
  progress(resource: string, rows: number, totalRows: number): void;
}

const sqlValue = (v: unknown): string => {
  if (typeof v === 'string') return literal(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(sqlValue).join(', ')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${literal(k)}: ${sqlValue(x)}`).join(', ')}}`;
  return 'NULL';
};
const OPTION_NAME = /^[a-z_]+$/;

const NUMERIC = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'FLOAT', 'DOUBLE']);
/** a type both old and new values fit in, used when a column's type changes between batches */
const widen = (a: string, b: string): string => (NUMERIC.has(a) && NUMERIC.has(b) ? 'DOUBLE' : 'VARCHAR');

// BigInts become JSON number literals (not strings), so DuckDB reads them as exact integers: the replacer
// marks them, then the marks are unquoted. (JSON.stringify escapes a NUL, so the mark is `\u0000` in text.)
const BIG_MARK = '\u0000basin-bigint:';
const bigintMark = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${BIG_MARK}${v}` : v);
const BIG_MARKED = /"\\u0000basin-bigint:(-?\d+)"/g;
/** JSON of one record; the replacer (a per-key callback, half the speed) only for the rare record holding a BigInt */
function recordJson(rec: unknown): string {
  try {
    return JSON.stringify(rec);
  } catch (e) {
    if (e instanceof TypeError && /BigInt/i.test(e.message)) return JSON.stringify(rec, bigintMark).replace(BIG_MARKED, '$1');
    throw e;
  }
}

/**
 * One sync's load into the warehouse (DECISIONS §3). Every batch goes into a staging table
 * (`raw_<source>._basin_staging__<resource>__<sync>`), read by DuckDB's own bulk readers; `commit` swaps
 * staging into place for every resource in ONE transaction, so a failed or killed sync leaves the
 * previous tables as they were.
 */
export class LoadSession {
  readonly schema: string;
  private readonly resources = new Map<string, ResourceLoad>();
  private readonly suffix: string;
  private totalRows = 0;
  private recordFiles = 0;
  private conn: Conn | null = null;

  constructor(
    private readonly warehouse: Warehouse,
    readonly source: string,
    readonly syncId: string,
    private readonly loadedAt: Date,
    private readonly tmpDir: string,
    private readonly specs: ResourceSpec[],
    private readonly signal: AbortSignal,
    private readonly hooks: LoadHooks,
    private readonly loadMemoryLimitMb: number | null = null,
  ) {
    this.schema = rawSchema(source);
    this.suffix = syncId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 12);
    // a cancel interrupts the statement DuckDB is running, not only the next one
    signal.addEventListener('abort', () => this.conn?.interrupt(), { once: true });
  }

  get rowsLoaded(): number {
    return this.totalRows;
  }

  private resource(name: string): ResourceLoad {
    let r = this.resources.get(name);
    if (!r) {
      if (!name || name.length > 120) throw new SourceError('bad_resource', `resource name "${name}" is empty or too long`);
      r = { name, spec: this.specs.find((s) => s.name === name), staging: `${STAGING_PREFIX}${name}__${this.suffix}`, created: false, columns: new Map(), rows: 0, files: [], records: [], forget: new Set() };
      this.resources.set(name, r);
    }
    return r;
  }

  async add(item: ReadItem): Promise<void> {
    const r = this.resource(item.resource);
    if (item.kind === 'file') {
      r.files.push(item);
      if (r.files.length >= FILE_BATCH) await this.flushFiles(r);
    } else if (item.kind === 'records') {
      for (const rec of item.records) r.records.push(rec);
      if (r.records.length >= RECORD_BATCH) await this.flushRecords(r);
    } else if (item.kind === 'forget_files') {
      for (const f of item.sourceFiles) r.forget.add(f);
    }
  }

  /** loads everything still buffered */
  async flush(): Promise<void> {
    for (const r of this.resources.values()) {
      await this.flushRecords(r);
      await this.flushFiles(r);
    }
  }

  private async flushRecords(r: ResourceLoad): Promise<void> {
    if (!r.records.length) return;
    fs.mkdirSync(this.tmpDir, { recursive: true });
    const file = path.join(this.tmpDir, `${r.name.replace(/[^a-zA-Z0-9_-]/g, '_')}-${this.recordFiles++}.ndjson`);
    const lines: string[] = new Array(r.records.length);
    for (let i = 0; i < r.records.length; i++) lines[i] = recordJson(r.records[i]);
    r.records = [];
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const columns = r.spec?.columns?.length ? Object.fromEntries(r.spec.columns.map((c) => [c.name, c.type])) : undefined;
    const sql = `read_json([${literal(file)}], format='newline_delimited', union_by_name=true${columns ? `, columns=${sqlValue(columns)}` : ''})`;
    await this.loadSelect(r, `SELECT *, ${this.metaColumns()}, CAST(NULL AS VARCHAR) AS _basin_source_file FROM ${sql}`, []);
    fs.rmSync(file, { force: true });
  }

  private async flushFiles(r: ResourceLoad): Promise<void> {
    if (!r.files.length) return;
    const items = r.files;
    r.files = [];
    const present: FileItem[] = [];
    for (const f of items) {
      let size: number;
      try {
        size = fs.statSync(f.path).size;
      } catch {
        this.hooks.warn(`${f.sourceFile ?? f.path} disappeared during the sync; skipped (its rows are removed on the next sync)`);
        continue;
      }
      if (size === 0) {
        this.hooks.warn(`${f.sourceFile ?? f.path} is empty; skipped`);
        continue;
      }
      present.push(f);
    }
    // one statement per group of files that share a reader and options; renamed files get their own
    const groups = new Map<string, FileItem[]>();
    for (const f of present) {
      const delim = f.format === 'csv' && !f.options?.delim && !f.options?.sep ? detectDelimiter(f.path) : '';
      const jsonl = f.format === 'json' && /\.(jsonl|ndjson)$/i.test(f.path);
      const key = JSON.stringify([f.format, f.options ?? {}, delim, jsonl]);
      const g = groups.get(key) ?? [];
      g.push(f);
      groups.set(key, g);
    }
    for (const [key, files] of groups) {
      const [, , delim, jsonl] = JSON.parse(key) as [string, unknown, string, boolean];
      await this.loadFiles(r, files, delim, jsonl);
    }
  }

  private async loadFiles(r: ResourceLoad, files: FileItem[], delim: string, jsonl: boolean): Promise<void> {
    const f0 = files[0]!;
    const list = `[${files.map((f) => literal(f.path)).join(', ')}]`;
    const opts: Record<string, unknown> = {};
    if (f0.format === 'csv') Object.assign(opts, { header: true, skip: 0, quote: '"', escape: '"', ...(delim ? { delim } : {}) });
    if (f0.format === 'json') opts.format = jsonl ? 'newline_delimited' : 'auto';
    Object.assign(opts, f0.options ?? {});
    if (files.length > 1) opts.union_by_name = true;
    // files a source names differently (e.g. project-relative) get their name through a CASE on the path
    const renamed = files.some((f) => f.sourceFile !== undefined && f.sourceFile !== f.path);
    // one file: its name is a constant, cheaper than DuckDB's per-row filename column
    const single = files.length === 1;
    if (!single) opts.filename = renamed ? '_basin_file_path' : '_basin_source_file';
    const optSql = Object.entries(opts)
      .filter(([k]) => OPTION_NAME.test(k))
      .map(([k, v]) => `${k}=${sqlValue(v)}`)
      .join(', ');
    const reader = f0.format === 'csv' ? 'read_csv' : f0.format === 'json' ? 'read_json' : 'read_parquet';
    const fileCol = single ? `, ${literal(f0.sourceFile ?? f0.path)} AS _basin_source_file` : renamed ? `, ${sourceFileExpr(files)} AS _basin_source_file` : '';
    const select = `SELECT *${renamed && !single ? ' EXCLUDE (_basin_file_path)' : ''}, ${this.metaColumns()}${fileCol} FROM ${reader}(${list}${optSql ? `, ${optSql}` : ''})`;
    try {
      await this.loadSelect(r, select, files);
    } catch (e) {
      throw this.describeFileError(e as Error, files, delim);
    }
  }

  private describeFileError(e: Error, files: FileItem[], delim: string): Error {
    if (this.signal.aborted) return e;
    const name = (f: FileItem) => f.sourceFile ?? f.path;
    if (files[0]?.format === 'csv') {
      for (const f of files) {
        const p = findCsvProblem(f.path, delim || ',');
        if (p) return new SourceError('malformed_file', `Malformed CSV ${name(f)} at line ${p.line}: ${p.message}. The previous data was kept.`, { file: name(f), line: p.line });
      }
    }
    const msg = e.message.split('\n')[0]!;
    const m = /in file "([^"]*)", at byte \d+ in line (\d+)/.exec(msg) ?? /file "([^"]*)".*?[Ll]ine:? (\d+)/.exec(msg);
    if (m) {
      const f = files.find((x) => x.path === m[1]);
      return new SourceError('malformed_file', `Malformed ${files[0]!.format.toUpperCase()} ${f ? name(f) : m[1]} at line ${m[2]}: ${msg}. The previous data was kept.`, { file: f ? name(f) : m[1], line: Number(m[2]) });
    }
    const missing = files.find((f) => !fs.existsSync(f.path));
    if (missing) return new SourceError('file_vanished', `${name(missing)} disappeared while it was being loaded; the previous data was kept. Sync again.`, { file: name(missing) });
    const listed = files.length === 1 ? name(files[0]!) : `one of ${files.length} files (${files.slice(0, 3).map(name).join(', ')}${files.length > 3 ? ', ...' : ''})`;
    return new SourceError('load_failed', `Could not load ${listed}: ${msg}. The previous data was kept.`);
  }

  private metaColumns(): string {
    return `CAST(${literal(this.loadedAt.toISOString())} AS TIMESTAMP) AS _basin_loaded_at, ${literal(this.syncId)} AS _basin_sync_id`;
  }

  /**
   * Runs on the write queue; the connection is kept so a cancel can interrupt the statement. While a
   * load statement runs, DuckDB's memory limit is lowered to `loadMemoryLimitMb` (it spills to disk
   * instead), so a 10M-row file does not grow the server by gigabytes; the previous limit is restored.
   */
  private write<T>(fn: (c: Conn) => Promise<T>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(new SourceError('cancelled', 'the sync was cancelled'));
    return this.warehouse.write(async (c) => {
      this.conn = c;
      let previous: string | null = null;
      try {
        if (this.loadMemoryLimitMb) {
          previous = String((await c.runAndReadAll("SELECT current_setting('memory_limit')")).getRows()[0]![0]);
          await c.run(`SET memory_limit = ${literal(`${this.loadMemoryLimitMb}MB`)}`);
        }
        return await fn(c);
      } finally {
        this.conn = null;
        if (previous !== null) await c.run(`SET memory_limit = ${literal(previous)}`).catch(() => undefined);
      }
    });
  }

  private async loadSelect(r: ResourceLoad, select: string, _files: FileItem[]): Promise<void> {
    const tbl = `${ident(this.schema)}.${ident(r.staging)}`;
    const added = await this.write(async (c) => {
      await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(this.schema)}`);
      let count: number;
      if (!r.created) {
        count = Number((await c.runAndReadAll(`CREATE TABLE ${tbl} AS ${select}`)).getRows()[0]?.[0] ?? 0);
        r.created = true;
      } else {
        const incoming = (await c.runAndReadAll(`DESCRIBE ${select}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>;
        for (const col of incoming) {
          const have = r.columns.get(col.column_name);
          if (have === undefined) await c.run(`ALTER TABLE ${tbl} ADD COLUMN ${ident(col.column_name)} ${col.column_type}`);
          else if (have !== col.column_type && widen(have, col.column_type) !== have) await c.run(`ALTER TABLE ${tbl} ALTER COLUMN ${ident(col.column_name)} TYPE ${widen(have, col.column_type)}`);
        }
        count = Number((await c.runAndReadAll(`INSERT INTO ${tbl} BY NAME ${select}`)).getRows()[0]?.[0] ?? 0);
      }
      const cols = (await c.runAndReadAll(`DESCRIBE ${tbl}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>;
      r.columns = new Map(cols.map((x) => [x.column_name, x.column_type]));
      return count;
    });
    r.rows += added;
    this.totalRows += added;
    this.hooks.progress(r.name, r.rows, this.totalRows);
  }

  /**
   * Swaps every resource's staging into its raw table in ONE transaction, together with a commit marker
   * (`_basin_meta.sync_commits`) that lets a restart tell whether the cursor state of this sync belongs
   * to committed data. Replace (full refresh or a `replace` resource) renames staging over the table;
   * append/merge inserts into it, after dropping rows of forgotten files (and, for merge, of updated keys).
   */
  async commit(fullRefresh: boolean): Promise<LoadedTable[]> {
    // a replace resource (or any resource on a full refresh) that yielded nothing is still swapped: to empty
    for (const spec of this.specs) if (fullRefresh || spec.writeDisposition === 'replace') this.resource(spec.name);
    const touched = [...this.resources.values()].filter((r) => r.created || r.forget.size || fullRefresh || r.spec?.writeDisposition === 'replace');
    return this.write(async (c) => {
      await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(META_SCHEMA)}`);
      await c.run(`CREATE TABLE IF NOT EXISTS ${ident(META_SCHEMA)}.sync_commits (sync_id VARCHAR PRIMARY KEY, source VARCHAR, committed_at TIMESTAMP)`);
      await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(this.schema)}`);
      const out: LoadedTable[] = [];
      await c.run('BEGIN TRANSACTION');
      try {
        for (const r of touched) out.push(await this.swapOne(c, r, fullRefresh));
        await c.run(`INSERT INTO ${ident(META_SCHEMA)}.sync_commits VALUES (${literal(this.syncId)}, ${literal(this.source)}, now())`);
        await c.run('COMMIT');
      } catch (e) {
        await c.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
      return out;
    });
  }

  private async swapOne(c: Conn, r: ResourceLoad, fullRefresh: boolean): Promise<LoadedTable> {
    const target = `${ident(this.schema)}.${ident(r.name)}`;
    const stg = `${ident(this.schema)}.${ident(r.staging)}`;
    const exists = await tableExists(c, this.schema, r.name);
    const before = exists ? Number((await c.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows()[0]![0]) : 0;
    const replace = fullRefresh || r.spec?.writeDisposition === 'replace';
    const guard = (after: number) => {
      if (before > 0 && after === 0 && !fullRefresh) {
        throw new SourceError(
          'would_empty_table',
          `This sync would leave ${this.schema}.${r.name} empty (it has ${before} rows); nothing was changed. Run a full refresh to allow it.`,
          { table: `${this.schema}.${r.name}`, rows: before },
        );
      }
    };
    if (replace || !exists) {
      if (r.created) {
        guard(r.rows);
        if (exists) await c.run(`DROP TABLE ${target}`);
        await c.run(`ALTER TABLE ${stg} RENAME TO ${ident(r.name)}`);
      } else if (exists) {
        guard(0);
        await c.run(`DELETE FROM ${target}`);
      }
    } else {
      const have = new Map(((await c.runAndReadAll(`DESCRIBE ${target}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>).map((x) => [x.column_name, x.column_type]));
      if (r.created) {
        // schema evolution first: DuckDB wants ALTERs before other changes to the table in a transaction
        for (const [col, type] of r.columns) {
          const was = have.get(col);
          if (was === undefined) await c.run(`ALTER TABLE ${target} ADD COLUMN ${ident(col)} ${type}`);
          else if (was !== type && widen(was, type) !== was) await c.run(`ALTER TABLE ${target} ALTER COLUMN ${ident(col)} TYPE ${widen(was, type)}`);
        }
      }
      if (r.forget.size && have.has('_basin_source_file')) {
        const list = [...r.forget].map(literal).join(', ');
        await c.run(`DELETE FROM ${target} WHERE _basin_source_file IN (${list})`);
      }
      if (r.created) {
        const pk = r.spec?.writeDisposition === 'merge' ? (r.spec.primaryKey ?? []).filter((k) => have.has(k) && r.columns.has(k)) : [];
        if (pk.length) {
          await c.run(`DELETE FROM ${target} AS t USING ${stg} AS s WHERE ${pk.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' AND ')}`);
        }
        await c.run(`INSERT INTO ${target} BY NAME SELECT * FROM ${stg}`);
        await c.run(`DROP TABLE ${stg}`);
      }
      const after = Number((await c.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows()[0]![0]);
      guard(after);
    }
    const rows = (await tableExists(c, this.schema, r.name)) ? Number((await c.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows()[0]![0]) : 0;
    const columns = (await tableExists(c, this.schema, r.name))
      ? ((await c.runAndReadAll(`DESCRIBE ${target}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string; null: string }>).map((x) => ({ name: x.column_name, type: x.column_type, nullable: x.null === 'YES' }))
      : [];
    return { name: r.name, schema: this.schema, rows, loaded: r.rows, columns };
  }

  /** drops this sync's staging tables (after a failure, a cancel, or a successful swap) */
  async discard(): Promise<void> {
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
    const names = [...this.resources.values()].filter((r) => r.created).map((r) => r.staging);
    if (!names.length) return;
    await this.warehouse.write(async (c) => {
      for (const n of names) await c.run(`DROP TABLE IF EXISTS ${ident(this.schema)}.${ident(n)}`);
    });
  }
}

/**
 * The SQL giving each row's source-file name from DuckDB's file path column: a common prefix cut when
 * every name is its path minus one prefix (local_files: project-relative), else a CASE over the paths.
 */
function sourceFileExpr(files: FileItem[]): string {
  const prefixes = new Set(files.map((f) => (f.sourceFile !== undefined && f.path.endsWith(f.sourceFile) ? f.path.slice(0, f.path.length - f.sourceFile.length) : null)));
  const [prefix] = [...prefixes];
  if (prefixes.size === 1 && typeof prefix === 'string') return `substr(_basin_file_path, ${[...prefix].length + 1})`;
  return `CASE _basin_file_path ${files.map((f) => `WHEN ${literal(f.path)} THEN ${literal(f.sourceFile ?? f.path)}`).join(' ')} END`;
}

export async function tableExists(c: Conn, schema: string, table: string): Promise<boolean> {
  const r = await c.runAndReadAll(`SELECT 1 FROM duckdb_tables() WHERE schema_name = ${literal(schema)} AND table_name = ${literal(table)}`);
  return r.getRows().length > 0;
}

/** Drops staging tables left by a process that died mid-load (nothing is syncing at start-up). */
export async function dropStaleStaging(warehouse: Warehouse): Promise<number> {
  return warehouse.write(async (c) => {
    const rows = (await c.runAndReadAll(`SELECT schema_name, table_name FROM duckdb_tables() WHERE starts_with(table_name, ${literal(STAGING_PREFIX)})`)).getRowObjectsJson() as Array<{ schema_name: string; table_name: string }>;
    for (const r of rows) await c.run(`DROP TABLE IF EXISTS ${ident(r.schema_name)}.${ident(r.table_name)}`);
    return rows.length;
  });
}

/** sync ids whose data was committed (the marker row is in the same transaction as the swap) */
export async function committedSyncIds(warehouse: Warehouse, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  return warehouse.write(async (c) => {
    if (!(await tableExists(c, META_SCHEMA, 'sync_commits'))) return new Set<string>();
    const rows = (await c.runAndReadAll(`SELECT sync_id FROM ${ident(META_SCHEMA)}.sync_commits WHERE sync_id IN (${ids.map(literal).join(', ')})`)).getRows();
    return new Set(rows.map((r) => String(r[0])));
  });
}
