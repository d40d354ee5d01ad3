// The embedded default: the warehouse interface over core's DuckDB engine (../store/warehouse.ts),
// which keeps owning the write queue, the dbt hand-off and the serving copy (DECISIONS §3).
import fs from 'node:fs';
import path from 'node:path';
import { ident, literal, Warehouse, type Conn } from '../store/warehouse.js';
import {
  WAREHOUSE_META_SCHEMA as META,
  WAREHOUSE_STAGING_PREFIX,
  type ColumnInfo,
  type DbtTarget,
  type QueryOptions,
  type QueryResult,
  type SampleBound,
  type StagedFile,
  type UnloadFilter,
  type StageRequest,
  type SwappedTable,
  type SwapRequest,
  type TableInfo,
  type WarehouseCapabilities,
  type WarehouseClient,
  type WarehouseHealth,
} from './interface.js';
import { forgetList } from './forget.js';
import { toPortableType } from './portable-types.js';
import { DBT_CORE_REQUIREMENTS } from './dbt-pins.js';

/** dbt-duckdb and Python duckdb pinned to @duckdb/node-api's engine version (same file format) */
export const DUCKDB_DBT_REQUIREMENTS = [...DBT_CORE_REQUIREMENTS, 'dbt-duckdb==1.11.1', 'duckdb==1.5.6'] as const;

export const duckdbCapabilities: WarehouseCapabilities = {
  type: 'duckdb',
  dialect: 'duckdb',
  bulkFormats: ['parquet', 'csv'],
  unloadFormats: ['parquet', 'csv'],
  merge: true,
  transactionalDdl: true,
  servingCopy: true,
  approxDistinct: (expr) => `approx_count_distinct(${expr})`,
  quoteIdent: ident,
  quoteLiteral: literal,
  qualify: (schema, table) => `${ident(schema)}.${ident(table)}`,
  sample: duckdbSample,
};

/**
 * A reservoir sample of `rows` rows. On a table bigger than `bound.maxRowsRead`, the reservoir draws
 * from a system sample first: DuckDB pushes that into the scan and reads only the chosen vectors
 * (2,048 rows each, spread over the table), so a 5M-row table costs tens of ms instead of a full read.
 */
function duckdbSample(table: string, rows: number, bound?: SampleBound): string {
  const n = Math.max(1, Math.floor(rows));
  const total = bound?.estimatedRows ?? null;
  const read = bound ? Math.max(n * 10, Math.floor(bound.maxRowsRead)) : 0;
  if (!bound || total === null || !(total > read)) return `${table} USING SAMPLE reservoir(${n} ROWS) REPEATABLE (42)`;
  const percent = Math.min(100, (read / total) * 100).toFixed(6);
  return `(SELECT * FROM ${table} TABLESAMPLE system(${percent}%) REPEATABLE (42)) USING SAMPLE reservoir(${n} ROWS) REPEATABLE (42)`;
}

/** a portable type in DuckDB's spelling */
export function duckdbType(portable: string): string {
  const p = toPortableType(portable);
  switch (p) {
    case 'text':
      return 'VARCHAR';
    case 'timestamptz':
      return 'TIMESTAMP WITH TIME ZONE';
    case 'json':
      return 'JSON';
    case 'real':
      return 'FLOAT';
    default:
      return p.toUpperCase();
  }
}

/** DuckDB's reader of a staged file */
export function duckdbFileScan(file: StagedFile, columns?: ColumnInfo[]): string {
  if (file.format === 'parquet') return `read_parquet(${literal(file.path)})`;
  const opts = [`header = ${file.header === false ? 'false' : 'true'}`, `delim = ${literal(file.delimiter ?? ',')}`];
  if (columns?.length) opts.push(`columns = {${columns.map((c) => `${literal(c.name)}: ${literal(duckdbType(c.type))}`).join(', ')}}`);
  return `read_csv(${literal(file.path)}, ${opts.join(', ')})`;
}

async function exists(c: Conn, schema: string, table: string): Promise<boolean> {
  const r = await c.runAndReadAll(`SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = ${literal(schema)} AND table_name = ${literal(table)}`);
  return r.getRows().length > 0;
}

async function count(c: Conn, table: string): Promise<number> {
  return Number((await c.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRows()[0]![0]);
}

async function describe(c: Conn, table: string): Promise<ColumnInfo[]> {
  const rows = (await c.runAndReadAll(`DESCRIBE ${table}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string; null: string }>;
  return rows.map((x) => ({ name: x.column_name, type: x.column_type, nullable: x.null === 'YES' }));
}

/** creates the bookkeeping tables (commit markers, cursor state) inside an open write */
async function ensureMeta(c: Conn): Promise<void> {
  await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(META)}`);
  await c.run(`CREATE TABLE IF NOT EXISTS ${ident(META)}.sync_commits (sync_id VARCHAR PRIMARY KEY, source VARCHAR, committed_at TIMESTAMP)`);
  await c.run(`CREATE TABLE IF NOT EXISTS ${ident(META)}.cursor_state (source VARCHAR PRIMARY KEY, sync_id VARCHAR, state JSON, updated_at TIMESTAMP)`);
}

/** at most maxRows + 1 rows of a statement, JSON-safe */
async function readCapped(c: Conn, sql: string, opts: QueryOptions): Promise<QueryResult> {
  const reader = await c.streamAndReadUntil(sql, opts.maxRows + 1);
  const rows = (await reader.getRowsJson()) as unknown[][];
  const names = reader.columnNames();
  const types = reader.columnTypes().map((t) => t.toString());
  return { columns: names.map((name, i) => ({ name, type: types[i]! })), rows: rows.slice(0, opts.maxRows), truncated: rows.length > opts.maxRows };
}

export class DuckDBWarehouseClient implements WarehouseClient {
  readonly capabilities = duckdbCapabilities;

  /** `engine` is shared with the plugins that still use DuckDB directly (one owner of the file) */
  constructor(readonly engine: Warehouse) {}

  open(): Promise<void> {
    return this.engine.open();
  }
  close(): Promise<void> {
    return this.engine.close();
  }

  async ensureSchema(schema: string): Promise<void> {
    await this.engine.write((c) => c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`), { staging: true });
  }

  loadStaged(req: StageRequest): Promise<{ rows: number }> {
    const stg = `${ident(req.schema)}.${ident(req.staging)}`;
    return this.engine.write(
      async (c) => {
        await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(req.schema)}`);
        await c.run(`DROP TABLE IF EXISTS ${stg}`);
        await c.run(`CREATE TABLE ${stg} AS SELECT * FROM ${duckdbFileScan(req.file, req.columns)}`);
        return { rows: await count(c, stg) };
      },
      { bounded: true, staging: true },
    );
  }

  swap(req: SwapRequest): Promise<SwappedTable[]> {
    return this.engine.write(
      async (c) => {
        await ensureMeta(c);
        for (const s of new Set(req.resources.map((r) => r.schema))) await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(s)}`);
        const out: SwappedTable[] = [];
        await c.run('BEGIN TRANSACTION');
        try {
          for (const r of req.resources) {
            const target = `${ident(r.schema)}.${ident(r.table)}`;
            const stg = `${ident(r.schema)}.${ident(r.staging)}`;
            const had = await exists(c, r.schema, r.table);
            if (r.disposition === 'replace' || !had) {
              if (had) await c.run(`DROP TABLE ${target}`);
              await c.run(`ALTER TABLE ${stg} RENAME TO ${ident(r.table)}`);
            } else {
              const have = new Set((await describe(c, target)).map((x) => x.name));
              // DuckDB wants ALTERs before other changes to the table in a transaction
              for (const col of await describe(c, stg)) if (!have.has(col.name)) await c.run(`ALTER TABLE ${target} ADD COLUMN ${ident(col.name)} ${col.type}`);
              if (r.forget?.values.length) await c.run(`DELETE FROM ${target} WHERE ${ident(r.forget.column)} IN (${forgetList(r.forget.values, literal)})`);
              const pk = r.disposition === 'merge' ? (r.primaryKey ?? []) : [];
              if (pk.length) await c.run(`DELETE FROM ${target} AS t USING ${stg} AS s WHERE ${pk.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' AND ')}`);
              await c.run(`INSERT INTO ${target} BY NAME SELECT * FROM ${stg}`);
              await c.run(`DROP TABLE ${stg}`);
            }
            out.push({ schema: r.schema, table: r.table, rows: await count(c, target) });
          }
          await c.run(`INSERT INTO ${ident(META)}.sync_commits VALUES (${literal(req.syncId)}, ${literal(req.source)}, now())`);
          if (req.cursor !== undefined) {
            await c.run(`DELETE FROM ${ident(META)}.cursor_state WHERE source = ${literal(req.source)}`);
            await c.run(`INSERT INTO ${ident(META)}.cursor_state VALUES (${literal(req.source)}, ${literal(req.syncId)}, ${literal(JSON.stringify(req.cursor))}, now())`);
          }
          await c.run('COMMIT');
        } catch (e) {
          await c.run('ROLLBACK').catch(() => undefined);
          throw e;
        }
        return out;
      },
      { bounded: true },
    );
  }

  async cursorState(source: string): Promise<unknown> {
    return this.engine.read(async (c) => {
      if (!(await exists(c, META, 'cursor_state'))) return null;
      const rows = (await c.runAndReadAll(`SELECT CAST(state AS VARCHAR) FROM ${ident(META)}.cursor_state WHERE source = ${literal(source)}`)).getRows();
      return rows.length ? JSON.parse(String(rows[0]![0])) : null;
    });
  }

  async committedSyncs(syncIds: string[]): Promise<Set<string>> {
    if (!syncIds.length) return new Set();
    return this.engine.read(async (c) => {
      if (!(await exists(c, META, 'sync_commits'))) return new Set<string>();
      const rows = (await c.runAndReadAll(`SELECT sync_id FROM ${ident(META)}.sync_commits WHERE sync_id IN (${syncIds.map(literal).join(', ')})`)).getRows();
      return new Set(rows.map((r) => String(r[0])));
    });
  }

  dropStaleStaging(): Promise<number> {
    return this.engine.write(
      async (c) => {
        const rows = (await c.runAndReadAll(`SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() AND starts_with(table_name, ${literal(WAREHOUSE_STAGING_PREFIX)})`)).getRowObjectsJson() as Array<{ schema_name: string; table_name: string }>;
        for (const r of rows) await c.run(`DROP TABLE IF EXISTS ${ident(r.schema_name)}.${ident(r.table_name)}`);
        if (rows.length) await c.run('CHECKPOINT');
        return rows.length;
      },
      { staging: true },
    );
  }

  /**
   * Reads the serving copy through a read-only instance with external access off (DuckDB's read-only
   * "user"): a write or a file read is refused by the engine itself. Interrupted at the timeout.
   */
  async query(sql: string, opts: QueryOptions): Promise<QueryResult> {
    if (opts.internal) return this.engine.read((c) => readCapped(c, sql, opts));
    await this.engine.servingCopyReady(opts.timeoutMs);
    if (!fs.existsSync(this.engine.servingPath)) await this.engine.publishServingCopy();
    const inst = await Warehouse.openReadOnly(this.engine.servingPath);
    const conn = await inst.connect();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      conn.interrupt();
    }, opts.timeoutMs);
    try {
      return await readCapped(conn, sql, opts);
    } catch (e) {
      if (timedOut) throw new Error(`The query ran longer than ${Math.round(opts.timeoutMs / 1000)} s and was cancelled.`, { cause: e });
      throw e;
    } finally {
      clearTimeout(timer);
      conn.closeSync();
      inst.closeSync();
    }
  }

  async execute(sql: string): Promise<void> {
    await this.engine.write((c) => c.run(sql));
  }

  listTables(schema?: string): Promise<TableInfo[]> {
    const where = schema === undefined ? '' : ` AND schema_name = ${literal(schema)}`;
    return this.engine.read(async (c) => {
      const rows = (
        await c.runAndReadAll(
          `SELECT schema_name, table_name AS name, 'table' AS kind, estimated_size AS est FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal${where}
           UNION ALL SELECT schema_name, view_name, 'view', NULL FROM duckdb_views() WHERE database_name = current_database() AND NOT internal${where}
           ORDER BY 1, 2`,
        )
      ).getRowObjectsJson() as Array<{ schema_name: string; name: string; kind: 'table' | 'view'; est: string | number | null }>;
      return rows
        .filter((r) => r.schema_name !== META && !r.name.startsWith(WAREHOUSE_STAGING_PREFIX))
        .map((r) => ({ schema: r.schema_name, name: r.name, kind: r.kind, estimatedRows: r.est === null ? null : Number(r.est) }));
    });
  }

  describeTable(schema: string, table: string): Promise<ColumnInfo[] | null> {
    return this.engine.read(async (c) => {
      const r = await c.runAndReadAll(
        `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = ${literal(schema)} AND table_name = ${literal(table)} ORDER BY ordinal_position`,
      );
      const rows = r.getRowObjectsJson() as Array<{ column_name: string; data_type: string; is_nullable: string }>;
      return rows.length ? rows.map((x) => ({ name: x.column_name, type: x.data_type, nullable: x.is_nullable === 'YES' })) : null;
    });
  }

  unload(schema: string, table: string, file: StagedFile, filter?: UnloadFilter): Promise<{ rows: number }> {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const fmt = file.format === 'parquet' ? 'FORMAT parquet' : `FORMAT csv, HEADER ${file.header === false ? 'false' : 'true'}, DELIMITER ${literal(file.delimiter ?? ',')}`;
    return this.engine.read(async (c) => {
      const t = `${ident(schema)}.${ident(table)}`;
      let select = '*';
      if (file.format === 'csv') {
        // CSV for other engines: nested values as JSON text, bytes as \x hex (how PostgreSQL reads them)
        const cols = await describe(c, t);
        select = cols
          .map((col) => {
            const q = ident(col.name);
            const portable = toPortableType(col.type);
            if (portable === 'json' && !/^json$/i.test(col.type)) return `to_json(${q}) AS ${q}`;
            if (portable === 'blob') return `'\\x' || hex(${q}) AS ${q}`;
            return q;
          })
          .join(', ');
      }
      const where = filter ? ` WHERE ${ident(filter.column)} = ${literal(filter.equals)}` : '';
      const r = await c.runAndReadAll(`COPY (SELECT ${select} FROM ${t}${where}) TO ${literal(file.path)} (${fmt})`);
      return { rows: Number(r.getRows()[0]?.[0] ?? 0) };
    });
  }

  dbtTarget(): DbtTarget {
    return { adapter: 'duckdb', requirements: DUCKDB_DBT_REQUIREMENTS, profile: { type: 'duckdb', path: this.engine.dbPath, threads: 1 }, env: {} };
  }

  readOnlyConnection(): null {
    return null; // companions open the serving copy
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.engine.handoff(fn);
  }

  publish(): Promise<void> {
    return this.engine.publishServingCopy();
  }

  async health(): Promise<WarehouseHealth> {
    const started = performance.now();
    try {
      const rows = await this.engine.query<{ v: string }>('SELECT version() AS v');
      return { type: 'duckdb', ok: true, version: `DuckDB ${rows[0]?.v ?? ''}`.trim(), latencyMs: Math.round(performance.now() - started), location: this.engine.dbPath };
    } catch (e) {
      return { type: 'duckdb', ok: false, message: (e as Error).message, location: this.engine.dbPath };
    }
  }
}
