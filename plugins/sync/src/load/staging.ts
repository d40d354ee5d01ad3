import fs from 'node:fs';
import path from 'node:path';
import { ident, literal, type Conn, type Warehouse } from '@basin/core';
import { SourceError, type ReadItem, type ResourceSpec } from '@basin/sdk';
import { detectDelimiter } from './csv-diagnose.js';
import { sniffedCsvOptions } from './csv-sniff.js';
import { describeFileError } from './diagnose.js';
import { fileId, fileIdSql } from './file-id.js';
import { appendBatch, planBatch, type BatchPlan } from './record-batch.js';
import { OPTION_NAME, recordJson, sqlValue } from './sql.js';
import { rejectsStaging, STAGING_PREFIX, type FileItem, type LoadHooks, type ResourceLoad } from './types.js';
import { widen } from './widen.js';

/**
 * Records are bulk-loaded in batches (appender, or an NDJSON file + read_json), one loading while
 * the next fills. A batch is one DuckDB row group (122,880 rows) when records are narrow: an insert
 * of a whole row group is written compressed straight to the file, a smaller one goes through the
 * WAL and is compressed again at the checkpoint (a third less DuckDB CPU per row, issue 16). Wide
 * records get fewer rows per batch, so a batch holds about the same number of values.
 */
const ROW_GROUP = 122_880;
/** BASIN_SYNC_BATCH_ROWS caps a batch lower (less memory per batch, more WAL work); never above a row group */
const MAX_BATCH = Math.min(ROW_GROUP, Math.max(1, Number(process.env.BASIN_SYNC_BATCH_ROWS) || ROW_GROUP));
const BATCH_VALUES = 1_500_000;
const MIN_BATCH = 2_048;
/** a slow source's batch loads after this long even when not full, so progress and staging keep moving */
const BATCH_WAIT_MS = 5_000;
const batchRows = (first: Record<string, unknown>): number => {
  let fields = 0;
  for (const _ in first) fields++;
  return Math.min(MAX_BATCH, Math.max(MIN_BATCH, Math.min(ROW_GROUP, Math.floor(BATCH_VALUES / Math.max(1, fields)))));
};
/** files per read_* call (one statement reads them in parallel with union_by_name) */
const FILE_BATCH = 500;
/**
 * Input bytes per load statement: a bigger group of files is loaded by several statements into the
 * same staging table. One statement over many big files spills to disk under the load memory limit
 * (50M rows in ten 306 MB CSVs at 192 MB: ~120 MB of temporary files, ~10% more CPU for the
 * statement alone, no gain measurable through a whole sync on 2 cores); a statement of up to ~900 MB
 * did not spill, and a single 2 GB file does not (docs/performance.md, issue 19).
 * BASIN_SYNC_STATEMENT_BYTES sets another size (read at each load: the tests cut tiny files apart).
 */
const statementBytes = (): number => Number(process.env.BASIN_SYNC_STATEMENT_BYTES) || 512 * 1024 * 1024;
/**
 * The columns Basin adds to every raw row. A staging table declares them RLE-compressed when creating
 * it costs little: DuckDB stores them as constant segments either way, but left to choose it also
 * tries bitpacking on each of them at every row group, about a fifth of what these columns cost a load
 * (callgrind, docs/performance.md, issue 19).
 */
const META_COLUMNS = new Set(['_basin_loaded_at', '_basin_sync_id', '_basin_file_id']);
/**
 * Declaring the columns takes one more bind of the first statement than a CTAS: for a CSV, one sniff
 * per file it reads (~40 ms each; ~2 ms for one CSV read with Basin's own options, which is sniffed
 * once either way, load/csv-sniff.ts). It is done when the load has at least this many bytes per file
 * that statement reads, so what it saves on every row (~1.5% of a load's instructions) more than pays
 * for it. BASIN_SYNC_DECLARE_BYTES sets another size (read at each load, like BASIN_SYNC_STATEMENT_BYTES).
 */
const declareBytesPerSniff = (): number => Number(process.env.BASIN_SYNC_DECLARE_BYTES) || 256 * 1024 * 1024;
/** DuckDB's temporary tables of refused CSV lines (store_rejects), per connection */
const REJECTS_TMP = 'basin_rejects';
const REJECTS_SCAN_TMP = 'basin_rejects_scan';

/**
 * The staging half of a load: buffers what a source yields per resource and bulk-loads it into that
 * resource's staging table (`raw_<source>._basin_staging__<resource>__<sync>`) with DuckDB's own
 * readers: flat records through the appender (load/record-batch.ts), other records through an NDJSON
 * batch file and read_json, files through read_csv/read_json/read_parquet. A column whose type
 * changes between batches is widened in staging.
 */
export class StagingLoad {
  readonly resources = new Map<string, ResourceLoad>();
  private readonly suffix: string;
  private totalRows = 0;
  private recordFiles = 0;
  private conn: Conn | null = null;
  /** the record batch loading while the source reads on (loadInBackground) */
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly warehouse: Warehouse,
    readonly schema: string,
    readonly syncId: string,
    private readonly loadedAt: Date,
    private readonly tmpDir: string,
    private readonly specs: ResourceSpec[],
    private readonly signal: AbortSignal,
    private readonly hooks: LoadHooks,
  ) {
    this.suffix = syncId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 12);
    // a cancel interrupts the statement DuckDB is running, not only the next one
    signal.addEventListener('abort', () => this.conn?.interrupt(), { once: true });
  }

  get rowsLoaded(): number {
    return this.totalRows;
  }

  resource(name: string): ResourceLoad {
    let r = this.resources.get(name);
    if (!r) {
      if (!name || name.length > 120) throw new SourceError('bad_resource', `resource name "${name}" is empty or too long`);
      r = { name, spec: this.specs.find((s) => s.name === name), staging: `${STAGING_PREFIX}${name}__${this.suffix}`, created: false, columns: new Map(), rows: 0, files: [], records: [], forget: new Set(), loadedFiles: new Set(), rejected: 0, rejectsCreated: false, widenedFrom: new Map() };
      this.resources.set(name, r);
    }
    return r;
  }

  async add(item: ReadItem): Promise<void> {
    const r = this.resource(item.resource);
    if (item.kind === 'file') {
      r.files.push(item);
      if (r.files.length >= FILE_BATCH) {
        await this.settle();
        await this.flushFiles(r);
      }
    } else if (item.kind === 'records') {
      if (!item.records.length) return;
      if (!r.records.length) {
        // sized from the first record of each batch: a resource whose records widen gets smaller batches
        r.batchRows = batchRows(item.records[0]!);
        r.batchStartedMs = Date.now();
      }
      for (const rec of item.records) r.records.push(rec);
      if (r.records.length >= (r.batchRows ?? ROW_GROUP) || Date.now() - (r.batchStartedMs ?? 0) >= BATCH_WAIT_MS) await this.loadInBackground(r);
    } else if (item.kind === 'forget_files') {
      for (const f of item.sourceFiles) r.forget.add(f);
    }
  }

  /**
   * Starts loading the buffered records of `r` and returns once the previous batch has loaded, so
   * the source reads its next pages while DuckDB loads this batch (at most one batch in flight:
   * memory stays at two batches). A failed load surfaces at the next add, flush or discard.
   */
  private async loadInBackground(r: ResourceLoad): Promise<void> {
    await this.settle();
    const load = this.flushRecords(r);
    // handled here so a failure waiting for the next call is not an unhandled rejection; settle() rethrows it
    load.catch(() => undefined);
    this.inFlight = load;
  }

  /** waits for the batch loading in the background; throws its error */
  private async settle(): Promise<void> {
    const load = this.inFlight;
    if (!load) return;
    try {
      await load;
    } finally {
      if (this.inFlight === load) this.inFlight = null;
    }
  }

  /** loads everything still buffered */
  async flush(): Promise<void> {
    await this.settle();
    for (const r of this.resources.values()) {
      await this.flushRecords(r);
      await this.flushFiles(r);
    }
  }

  private async flushRecords(r: ResourceLoad): Promise<void> {
    // taken before the first await: the source goes on filling r.records while this batch loads
    let records: Record<string, unknown>[] | null = r.records;
    if (!records.length) return;
    r.records = [];
    // flat records go through DuckDB's appender; nested or ambiguous ones through an NDJSON file and read_json
    let plan: BatchPlan | null = r.spec?.columns?.length ? null : planBatch(records);
    if (plan) {
      const tmp = `_basin_batch_${this.suffix}`;
      // declared: the extra bind reads a temporary table's catalog entry, not a file
      await this.loadSelect(r, async (c) => {
        const columns = await appendBatch(c, tmp, plan!, records!);
        // the batch is in DuckDB's temporary table now: its objects can be collected while the insert runs
        records = null;
        plan = null;
        return {
          select: `SELECT ${columns}, ${this.metaColumns()}, ${NO_FILE} FROM temp.main.${ident(tmp)}`,
          cleanup: `DROP TABLE IF EXISTS temp.main.${ident(tmp)}`,
        };
      }, { declare: true });
      return;
    }
    fs.mkdirSync(this.tmpDir, { recursive: true });
    const file = path.join(this.tmpDir, `${r.name.replace(/[^a-zA-Z0-9_-]/g, '_')}-${this.recordFiles++}.ndjson`);
    const lines: string[] = new Array(records.length);
    for (let i = 0; i < records.length; i++) lines[i] = recordJson(records[i]);
    records = null;
    fs.writeFileSync(file, lines.join('\n') + '\n');
    lines.length = 0;
    const columns = r.spec?.columns?.length ? Object.fromEntries(r.spec.columns.map((c) => [c.name, c.type])) : undefined;
    const sql = `read_json([${literal(file)}], format='newline_delimited', union_by_name=true${columns ? `, columns=${sqlValue(columns)}` : ''})`;
    await this.loadSelect(r, `SELECT *, ${this.metaColumns()}, ${NO_FILE} FROM ${sql}`, {});
    fs.rmSync(file, { force: true });
  }

  private async flushFiles(r: ResourceLoad): Promise<void> {
    if (!r.files.length) return;
    const items = r.files;
    r.files = [];
    const present: FileItem[] = [];
    const bytes = new Map<FileItem, number>();
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
      bytes.set(f, size);
      r.loadedFiles.add(f.sourceFile ?? f.path);
    }
    // one statement per group of files that share a reader and options
    const groups = new Map<string, FileItem[]>();
    for (const f of present) {
      const delim = f.format === 'csv' && !f.options?.delim && !f.options?.sep ? detectDelimiter(f.path) : '';
      const jsonl = f.format === 'json' && /\.(jsonl|ndjson)$/i.test(f.path);
      // DuckDB keeps rejects only for a single-file read (not with union_by_name): one group per quarantined file
      const quarantine = f.format === 'csv' && f.malformedRows === 'quarantine' ? f.path : null;
      const key = JSON.stringify([f.format, f.options ?? {}, delim, jsonl, quarantine]);
      const g = groups.get(key) ?? [];
      g.push(f);
      groups.set(key, g);
    }
    for (const [key, files] of groups) {
      const [, , delim, jsonl, quarantine] = JSON.parse(key) as [string, unknown, string, boolean, string | null];
      const parts = splitByBytes(files, bytes, statementBytes());
      const total = files.reduce((n, f) => n + (bytes.get(f) ?? 0), 0);
      // rejects are kept from a CTAS or INSERT, not from a DESCRIBE: a quarantined file is loaded as before
      const declare = !quarantine && total / parts[0]!.length >= declareBytesPerSniff();
      for (const part of parts) await this.loadFiles(r, part, delim, jsonl, declare);
    }
  }

  private async loadFiles(r: ResourceLoad, files: FileItem[], delim: string, jsonl: boolean, declare: boolean): Promise<void> {
    const f0 = files[0]!;
    const list = `[${files.map((f) => literal(f.path)).join(', ')}]`;
    const opts: Record<string, unknown> = {};
    const quarantine = f0.format === 'csv' && f0.malformedRows === 'quarantine';
    // strict: a row whose field count differs from the header is an error, never padded or shifted
    if (f0.format === 'csv') Object.assign(opts, { header: true, skip: 0, quote: '"', escape: '"', strict_mode: true, null_padding: false, ...(delim ? { delim } : {}) });
    if (f0.format === 'json') opts.format = jsonl ? 'newline_delimited' : 'auto';
    Object.assign(opts, f0.options ?? {});
    if (quarantine) Object.assign(opts, { strict_mode: true, null_padding: false, store_rejects: true, rejects_table: REJECTS_TMP, rejects_scan: REJECTS_SCAN_TMP });
    if (files.length > 1) opts.union_by_name = true;
    // one file: its id is a constant; several: DuckDB's file path column, mapped to the file's id
    const single = files.length === 1;
    if (!single) opts.filename = '_basin_file_path';
    const optSql = readerOptionSql(opts);
    const reader = f0.format === 'csv' ? 'read_csv' : f0.format === 'json' ? 'read_json' : 'read_parquet';
    const selectWith = (o: string) => `SELECT *${single ? '' : ' EXCLUDE (_basin_file_path)'}, ${this.metaColumns()}, ${fileIdColumn(files)} FROM ${reader}(${list}${o ? `, ${o}` : ''})`;
    // one CSV read with Basin's own options only: sniffed once, then bound without sniffing again. Not
    // for several files (sniff_csv reads one), quarantined ones (their rejects come from the load's own
    // read) or a source's reader options (they may set what the sniff reports).
    const sniffOnce = f0.format === 'csv' && single && !quarantine && Object.keys(f0.options ?? {}).every((k) => k === 'delim' || k === 'sep');
    const source = sniffOnce ? async (c: Conn) => ({ select: selectWith(readerOptionSql({ ...opts, ...(await sniffedCsvOptions(c, f0.path, optSql)) })) }) : selectWith(optSql);
    try {
      await this.loadSelect(r, source, { quarantined: quarantine ? f0 : null, unordered: true, declare });
    } catch (e) {
      throw this.signal.aborted ? e : describeFileError(e as Error, files, delim);
    }
  }

  /**
   * The load time and the sync's id on every row: typed TIMESTAMP and UUID, which DuckDB stores as
   * constants (a VARCHAR sync id cost ~1.4 G instructions per million rows, docs/decisions.md)
   */
  private metaColumns(): string {
    return `CAST(${literal(this.loadedAt.toISOString())} AS TIMESTAMP) AS _basin_loaded_at, CAST(${literal(this.syncId)} AS UUID) AS _basin_sync_id`;
  }

  /** a staging write: bounded by the load memory limit, interruptible by a cancel, invisible to readers */
  write<T>(fn: (c: Conn) => Promise<T>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(new SourceError('cancelled', 'the sync was cancelled'));
    return this.warehouse.write(
      async (c) => {
        this.conn = c;
        try {
          return await fn(c);
        } finally {
          this.conn = null;
        }
      },
      { bounded: true, staging: true },
    );
  }

  /**
   * `source`: the SELECT to load, or a step run first on the write connection that gives it (and SQL
   * to run after). `unordered` (file loads): DuckDB may store the rows in any order. Keeping the
   * files' row order makes a parallel insert under the load memory limit hold finished row groups
   * back for the ones before them; without it each thread writes its own (DuckDB's advice for loads
   * bigger than memory). The setting is the instance's: it is put back after the statement.
   * `declare`: a staging table this statement creates declares the `_basin_*` columns' compression.
   */
  private async loadSelect(r: ResourceLoad, source: string | ((c: Conn) => Promise<{ select: string; cleanup?: string }>), how: LoadHow): Promise<void> {
    const tbl = `${ident(this.schema)}.${ident(r.staging)}`;
    const added = await this.write(async (c) => {
      const ordered = how.unordered ? (await c.runAndReadAll("SELECT current_setting('preserve_insertion_order')")).getRows()[0]![0] !== false : false;
      if (ordered) await c.run('SET preserve_insertion_order = false');
      try {
        if (typeof source === 'string') return await this.loadInto(c, r, tbl, source, how);
        const { select, cleanup } = await source(c);
        try {
          return await this.loadInto(c, r, tbl, select, how);
        } finally {
          if (cleanup) await c.run(cleanup);
        }
      } finally {
        if (ordered) await c.run('SET preserve_insertion_order = true');
      }
    });
    r.rows += added;
    this.totalRows += added;
    this.hooks.progress(r.name, r.rows, this.totalRows);
  }

  private async loadInto(c: Conn, r: ResourceLoad, tbl: string, select: string, how: LoadHow): Promise<number> {
    await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(this.schema)}`);
    if (how.quarantined) await c.run(`DROP TABLE IF EXISTS ${REJECTS_TMP}; DROP TABLE IF EXISTS ${REJECTS_SCAN_TMP}`);
    let count: number;
    if (!r.created && !how.declare) {
      count = Number((await c.runAndReadAll(`CREATE TABLE ${tbl} AS ${select}`)).getRows()[0]?.[0] ?? 0);
      r.created = true;
    } else {
      const incoming = (await c.runAndReadAll(`DESCRIBE ${select}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>;
      if (!r.created) {
        const columns = incoming.map((col) => `${ident(col.column_name)} ${col.column_type}${META_COLUMNS.has(col.column_name) ? ' USING COMPRESSION rle' : ''}`);
        await c.run(`CREATE TABLE ${tbl} (${columns.join(', ')})`);
        // from here the table is this load's to drop, whatever the insert does
        r.created = true;
      } else {
        for (const col of incoming) {
          const have = r.columns.get(col.column_name);
          if (have === undefined) await c.run(`ALTER TABLE ${tbl} ADD COLUMN ${ident(col.column_name)} ${col.column_type}`);
          else if (widen(have, col.column_type) !== have) {
            if (!r.widenedFrom.has(col.column_name)) r.widenedFrom.set(col.column_name, have);
            await c.run(`ALTER TABLE ${tbl} ALTER COLUMN ${ident(col.column_name)} TYPE ${widen(have, col.column_type)}`);
          }
        }
      }
      count = Number((await c.runAndReadAll(`INSERT INTO ${tbl} BY NAME ${select}`)).getRows()[0]?.[0] ?? 0);
    }
    if (how.quarantined) await this.keepRejects(c, r, how.quarantined);
    const cols = (await c.runAndReadAll(`DESCRIBE ${tbl}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>;
    r.columns = new Map(cols.map((x) => [x.column_name, x.column_type]));
    return count;
  }

  /** moves the lines DuckDB refused in the statement just run into the resource's staging rejects table */
  private async keepRejects(c: Conn, r: ResourceLoad, file: FileItem): Promise<void> {
    const n = Number((await c.runAndReadAll(`SELECT count(DISTINCT line) FROM ${REJECTS_TMP}`)).getRows()[0]?.[0] ?? 0);
    if (!n) return;
    const stg = `${ident(this.schema)}.${ident(rejectsStaging(r))}`;
    if (!r.rejectsCreated) {
      await c.run(`CREATE TABLE ${stg} (file VARCHAR, line BIGINT, raw VARCHAR, reason VARCHAR, _basin_loaded_at TIMESTAMP, _basin_sync_id UUID)`);
      r.rejectsCreated = true;
    }
    const name = file.sourceFile ?? file.path;
    await c.run(
      `INSERT INTO ${stg} SELECT ${literal(name)}, line, any_value(csv_line), string_agg(error_message, '; ' ORDER BY column_idx), ` +
        `CAST(${literal(this.loadedAt.toISOString())} AS TIMESTAMP), CAST(${literal(this.syncId)} AS UUID) FROM ${REJECTS_TMP} GROUP BY line ORDER BY line`,
    );
    r.rejected += n;
    const first = (await c.runAndReadAll(`SELECT line, string_agg(error_message, '; ' ORDER BY column_idx) FROM ${REJECTS_TMP} GROUP BY line ORDER BY line LIMIT 1`)).getRows()[0];
    this.hooks.warn(`${name}: ${n} malformed row(s) quarantined into ${this.schema}.${r.name}__rejects (first at line ${String(first?.[0])}: ${String(first?.[1])})`);
  }

  /**
   * Drops this load's staging tables and batch files. After a failed load a checkpoint follows, so the
   * blocks staging took are free for the next load rather than growing the warehouse file (issue 12).
   */
  async discard(failed = false): Promise<void> {
    // a batch still loading finishes (or fails) before its staging table and files are removed
    await this.inFlight?.catch(() => undefined);
    this.inFlight = null;
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
    const names = [...this.resources.values()].flatMap((r) => [...(r.created ? [r.staging] : []), ...(r.rejectsCreated ? [rejectsStaging(r)] : [])]);
    if (!names.length) return;
    await this.warehouse.write(
      async (c) => {
        for (const n of names) await c.run(`DROP TABLE IF EXISTS ${ident(this.schema)}.${ident(n)}`);
        if (failed) await c.run('CHECKPOINT');
      },
      { staging: true },
    );
  }
}

/** `files` in order, cut into runs of at most `limit` bytes each (a bigger file is a run of its own) */
export function splitByBytes<T>(files: T[], bytes: Map<T, number>, limit: number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let sum = 0;
  for (const f of files) {
    const size = bytes.get(f) ?? 0;
    if (run.length && sum + size > limit) {
      runs.push(run);
      run = [];
      sum = 0;
    }
    run.push(f);
    sum += size;
  }
  if (run.length) runs.push(run);
  return runs;
}

/** reader options as `name=value, ...` SQL; a name that is not a plain option name is dropped */
function readerOptionSql(opts: Record<string, unknown>): string {
  return Object.entries(opts)
    .filter(([k]) => OPTION_NAME.test(k))
    .map(([k, v]) => `${k}=${sqlValue(v)}`)
    .join(', ');
}

/** how a statement loads: see StagingLoad.loadSelect */
interface LoadHow {
  quarantined?: FileItem | null;
  unordered?: boolean;
  declare?: boolean;
}

/** records and database rows come from no file */
const NO_FILE = 'CAST(NULL AS BIGINT) AS _basin_file_id';

/**
 * The `_basin_file_id` column of a load of `files`: a constant for one file; for several, computed
 * from DuckDB's file path column, which is constant within a chunk, so the id is computed once per
 * chunk and the column costs what a constant BIGINT does. A source-file name that is its path minus a
 * common prefix (local_files: project-relative) is cut from the path; other names (inbox: a message
 * part's IMAP URL) go through a CASE over the paths.
 */
function fileIdColumn(files: FileItem[]): string {
  const name = (f: FileItem) => f.sourceFile ?? f.path;
  if (files.length === 1) return `CAST(${fileId(name(files[0]!))} AS BIGINT) AS _basin_file_id`;
  const prefixes = new Set(files.map((f) => (f.path.endsWith(name(f)) ? f.path.slice(0, f.path.length - name(f).length) : null)));
  const [prefix] = [...prefixes];
  if (prefixes.size === 1 && typeof prefix === 'string') return `${fileIdSql(prefix ? `substr(_basin_file_path, ${[...prefix].length + 1})` : '_basin_file_path')} AS _basin_file_id`;
  return `CASE _basin_file_path ${files.map((f) => `WHEN ${literal(f.path)} THEN CAST(${fileId(name(f))} AS BIGINT)`).join(' ')} END AS _basin_file_id`;
}
