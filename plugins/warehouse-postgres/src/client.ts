// PostgreSQL as a warehouse (issue 22): bulk loads with COPY FROM STDIN, staged tables swapped in one
// transaction with the commit marker and the cursor state (PostgreSQL's DDL is transactional), reads as
// a role with only SELECT and default_transaction_read_only, catalog from information_schema.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import {
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
import { jsonSafe, pgIdent, pgLiteral, postgresType } from './types.js';
import { POSTGRES_DBT_REQUIREMENTS, postgresDbtVenv } from './dbt.js';
import { dependentViews, recreateViews } from './dependent-views.js';

/** the SQLAlchemy driver companions need (binary wheels on PyPI: no compiler, no libpq headers) */
export const POSTGRES_SQLALCHEMY_DRIVERS = ['psycopg2-binary==2.9.10'] as const;

export interface PostgresSettings {
  host: string;
  port: number;
  database: string;
  user: string;
  password_env: string;
  read_user: string;
  read_password_env: string;
  schema_prefix: string;
  ssl: boolean;
}

export const postgresCapabilities: WarehouseCapabilities = {
  type: 'postgres',
  dialect: 'postgres',
  // COPY reads text formats only; Parquet would need an extension Debian's server does not ship
  bulkFormats: ['csv'],
  unloadFormats: ['csv'],
  merge: true,
  transactionalDdl: true,
  servingCopy: false,
  // no approx_count_distinct without the hll extension: exact
  approxDistinct: (expr) => `count(DISTINCT ${expr})`,
  quoteIdent: pgIdent,
  quoteLiteral: pgLiteral,
  qualify: (schema, table) => `${pgIdent(schema)}.${pgIdent(table)}`,
  // TABLESAMPLE is by percent and tsm_system_rows is an extension: the first rows the scan meets
  sample: (table, rows) => `(SELECT * FROM ${table} LIMIT ${Math.max(1, Math.floor(rows))}) AS basin_sample`,
};

/** an error that says which environment variable to set (never its value) */
class MissingSecretError extends Error {}

export class PostgresWarehouseClient implements WarehouseClient {
  /** `qualify` applies this warehouse's schema_prefix */
  readonly capabilities: WarehouseCapabilities = { ...postgresCapabilities, qualify: (schema, table) => this.q(schema, table) };
  private writer: pg.Pool | null = null;
  private reader: pg.Pool | null = null;
  /** rows COPY reported per staging table, so a replace swap need not count them again */
  private stagedRows = new Map<string, number>();

  constructor(
    readonly settings: PostgresSettings,
    private readonly env: (name: string) => string | undefined,
  ) {}

  get location(): string {
    return `${this.settings.host}:${this.settings.port}/${this.settings.database}`;
  }

  /** the schema a Basin schema name lives in on the server (`schema_prefix` applied) */
  schemaName(schema: string): string {
    return `${this.settings.schema_prefix}${schema}`;
  }

  private q(schema: string, table: string): string {
    return `${pgIdent(this.schemaName(schema))}.${pgIdent(table)}`;
  }

  private secret(envName: string): string {
    const v = this.env(envName);
    if (v === undefined) throw new MissingSecretError(`The PostgreSQL warehouse password is not set: put it in the environment variable ${envName} (or the project's .env).`);
    return v;
  }

  private pool(user: string, passwordEnv: string, readOnly: boolean): pg.Pool {
    const pool = new pg.Pool({
      host: this.settings.host,
      port: this.settings.port,
      database: this.settings.database,
      user,
      // resolved on each new connection, so a rotated secret is picked up and a missing one fails the call, not the boot
      password: () => this.secret(passwordEnv),
      ssl: this.settings.ssl ? { rejectUnauthorized: true } : undefined,
      max: readOnly ? 4 : 2,
      idleTimeoutMillis: 30_000,
      application_name: readOnly ? 'basin-reader' : 'basin',
      // belt and braces: the role's default already makes its transactions read-only
      options: readOnly ? '-c default_transaction_read_only=on' : undefined,
    });
    pool.on('error', () => undefined); // an idle client's broken connection is dropped; the next query reconnects
    return pool;
  }

  async open(): Promise<void> {
    this.writer ??= this.pool(this.settings.user, this.settings.password_env, false);
    this.reader ??= this.pool(this.settings.read_user, this.settings.read_password_env, true);
  }

  async close(): Promise<void> {
    const [w, r] = [this.writer, this.reader];
    this.writer = this.reader = null;
    await Promise.all([w?.end(), r?.end()]);
  }

  private async write<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.open();
    const c = await this.writer!.connect();
    try {
      return await fn(c);
    } finally {
      c.release();
    }
  }

  /** the schema exists and the read-only role may read what the writer creates in it from now on */
  private async ensureSchemaOn(c: pg.PoolClient, schema: string): Promise<void> {
    const s = pgIdent(this.schemaName(schema));
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    const reader = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [this.settings.read_user]);
    if (reader.rowCount) {
      const r = pgIdent(this.settings.read_user);
      await c.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
      await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${s} TO ${r}`);
      await c.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT ON TABLES TO ${r}`);
    }
  }

  async ensureSchema(schema: string): Promise<void> {
    await this.write((c) => this.ensureSchemaOn(c, schema));
  }

  private async ensureMeta(c: pg.PoolClient): Promise<void> {
    const m = pgIdent(this.schemaName(META));
    // CREATE ... IF NOT EXISTS races with itself (sync workers' first swaps at once: "type already
    // exists"): one writer at a time, under a transaction-scoped advisory lock
    await c.query('BEGIN');
    try {
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('basin.ensure_meta'))`);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${m}`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${m}.sync_commits (sync_id text PRIMARY KEY, source text, committed_at timestamp)`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${m}.cursor_state (source text PRIMARY KEY, sync_id text, state jsonb, updated_at timestamp)`);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  /** COPY FROM STDIN of a CSV file into a fresh staging table, columns typed from `columns` (text when absent) */
  async loadStaged(req: StageRequest): Promise<{ rows: number }> {
    if (req.file.format !== 'csv') throw new Error(`PostgreSQL loads CSV files; got ${req.file.format}. Stage the data as CSV (capabilities.bulkFormats).`);
    const columns = req.columns ?? (await csvHeader(req.file)).map((name) => ({ name, type: 'text', nullable: true }));
    const stg = this.q(req.schema, req.staging);
    return this.write(async (c) => {
      await this.ensureSchemaOn(c, req.schema);
      await c.query(`DROP TABLE IF EXISTS ${stg}`);
      await c.query(`CREATE TABLE ${stg} (${columns.map((col) => `${pgIdent(col.name)} ${postgresType(col.type)}`).join(', ')})`);
      const delimiter = pgLiteral(req.file.delimiter ?? ',');
      const copy = c.query(copyFrom(`COPY ${stg} (${columns.map((col) => pgIdent(col.name)).join(', ')}) FROM STDIN WITH (FORMAT csv, HEADER ${req.file.header === false ? 'false' : 'true'}, DELIMITER ${delimiter})`));
      await pipeline(fs.createReadStream(req.file.path, { highWaterMark: 1 << 20 }), copy);
      const rows = Number(copy.rowCount ?? 0);
      this.stagedRows.set(`${req.schema}.${req.staging}`, rows);
      return { rows };
    });
  }

  async swap(req: SwapRequest): Promise<SwappedTable[]> {
    return this.write(async (c) => {
      await this.ensureMeta(c);
      for (const s of new Set(req.resources.map((r) => r.schema))) await this.ensureSchemaOn(c, s);
      const out: SwappedTable[] = [];
      await c.query('BEGIN');
      try {
        for (const r of req.resources) {
          const target = this.q(r.schema, r.table);
          const stg = this.q(r.schema, r.staging);
          const had = (await this.columnsOn(c, r.schema, r.table)) !== null;
          let rows: number | undefined;
          let viewsDropped: string[] | undefined;
          if (r.disposition === 'replace' || !had) {
            const views = had ? await dependentViews(c, this.schemaName(r.schema), r.table) : [];
            if (had) await c.query(`DROP TABLE ${target}${views.length ? ' CASCADE' : ''}`);
            await c.query(`ALTER TABLE ${stg} RENAME TO ${pgIdent(r.table)}`);
            const lost = await recreateViews(c, views);
            if (lost.length) viewsDropped = lost;
            rows = this.stagedRows.get(`${r.schema}.${r.staging}`);
          } else {
            const have = new Set((await this.columnsOn(c, r.schema, r.table))!.map((x) => x.name));
            const staged = (await this.columnsOn(c, r.schema, r.staging)) ?? [];
            for (const col of staged) if (!have.has(col.name)) await c.query(`ALTER TABLE ${target} ADD COLUMN ${pgIdent(col.name)} ${postgresType(col.type)}`);
            if (r.forget?.values.length) await c.query(`DELETE FROM ${target} WHERE ${pgIdent(r.forget.column)} = ANY($1::${r.forget.values.every((v) => typeof v === 'number') ? 'bigint' : 'text'}[])`, [r.forget.values]);
            // merge as DELETE USING + INSERT in this transaction: the same rows as DuckDB's commit (a key
            // staged twice keeps both rows there too), where MERGE / ON CONFLICT would refuse the batch;
            // only the staged rows are written, the table's other rows stay where they are
            const pk = r.disposition === 'merge' ? (r.primaryKey ?? []) : [];
            if (pk.length) await c.query(`DELETE FROM ${target} AS t USING ${stg} AS s WHERE ${pk.map((k) => `t.${pgIdent(k)} = s.${pgIdent(k)}`).join(' AND ')}`);
            const cols = staged.map((x) => pgIdent(x.name)).join(', ');
            await c.query(`INSERT INTO ${target} (${cols}) SELECT ${cols} FROM ${stg}`);
            await c.query(`DROP TABLE ${stg}`);
          }
          this.stagedRows.delete(`${r.schema}.${r.staging}`);
          rows ??= Number((await c.query(`SELECT count(*) AS n FROM ${target}`)).rows[0].n);
          out.push({ schema: r.schema, table: r.table, rows, ...(viewsDropped ? { viewsDropped } : {}) });
        }
        const m = pgIdent(this.schemaName(META));
        await c.query(`INSERT INTO ${m}.sync_commits VALUES ($1, $2, now())`, [req.syncId, req.source]);
        if (req.cursor !== undefined) {
          await c.query(
            `INSERT INTO ${m}.cursor_state VALUES ($1, $2, $3::jsonb, now()) ON CONFLICT (source) DO UPDATE SET sync_id = EXCLUDED.sync_id, state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
            [req.source, req.syncId, JSON.stringify(req.cursor)],
          );
        }
        await c.query('COMMIT');
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
      return out;
    });
  }

  async cursorState(source: string): Promise<unknown> {
    return this.write(async (c) => {
      if (!(await this.columnsOn(c, META, 'cursor_state'))) return null;
      const r = await c.query(`SELECT state FROM ${this.q(META, 'cursor_state')} WHERE source = $1`, [source]);
      return r.rows[0]?.state ?? null;
    });
  }

  async committedSyncs(syncIds: string[]): Promise<Set<string>> {
    if (!syncIds.length) return new Set();
    return this.write(async (c) => {
      if (!(await this.columnsOn(c, META, 'sync_commits'))) return new Set<string>();
      const r = await c.query(`SELECT sync_id FROM ${this.q(META, 'sync_commits')} WHERE sync_id = ANY($1)`, [syncIds]);
      return new Set(r.rows.map((x) => String(x.sync_id)));
    });
  }

  async dropStaleStaging(): Promise<number> {
    return this.write(async (c) => {
      const r = await c.query(
        `SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema LIKE $1 AND left(table_name, $2) = $3`,
        [`${likeEscape(this.settings.schema_prefix)}%`, WAREHOUSE_STAGING_PREFIX.length, WAREHOUSE_STAGING_PREFIX],
      );
      for (const row of r.rows) await c.query(`DROP TABLE IF EXISTS ${pgIdent(row.table_schema)}.${pgIdent(row.table_name)}`);
      return r.rowCount ?? 0;
    });
  }

  /**
   * Runs one statement as the read-only role in a READ ONLY transaction with a statement timeout; the
   * extended protocol refuses a second statement, and a cursor reads at most maxRows + 1 rows.
   */
  async query(sql: string, opts: QueryOptions): Promise<QueryResult> {
    await this.open();
    const c = await this.reader!.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN READ ONLY');
      await c.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(opts.timeoutMs))}`);
      const cursor = c.query(new Cursor(sql, undefined, { rowMode: 'array' }));
      let read: { rows: unknown[][]; fields: pg.FieldDef[] };
      try {
        read = await new Promise((resolve, reject) =>
          cursor.read(opts.maxRows + 1, (err, got, result) => (err ? reject(err) : resolve({ rows: got as unknown[][], fields: result.fields ?? [] }))),
        );
      } finally {
        // the cursor holds the connection until closed: the type lookup below queues behind it
        await cursor.close().catch(() => undefined);
      }
      const types = await typeNames(c, read.fields.map((f) => f.dataTypeID));
      return {
        columns: read.fields.map((f) => ({ name: f.name, type: types.get(f.dataTypeID) ?? 'unknown' })),
        rows: read.rows.slice(0, opts.maxRows).map((r) => r.map(jsonSafe)),
        truncated: read.rows.length > opts.maxRows,
      };
    } catch (e) {
      const err = e as Error & { code?: string };
      if (err.code === '57014') throw new Error(`The query ran longer than ${Math.round(opts.timeoutMs / 1000)} s and was cancelled.`, { cause: e });
      broken = err.code ? undefined : err;
      throw e;
    } finally {
      await c.query('ROLLBACK').catch(() => undefined);
      c.release(broken);
    }
  }

  async execute(sql: string): Promise<void> {
    await this.write((c) => c.query(sql));
  }

  async listTables(schema?: string): Promise<TableInfo[]> {
    return this.write(async (c) => {
      const prefix = this.settings.schema_prefix;
      const r = await c.query(
        `SELECT table_schema, table_name, table_type,
                (SELECT CASE WHEN c.reltuples < 0 THEN NULL ELSE c.reltuples::bigint END FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                  WHERE n.nspname = table_schema AND c.relname = table_name AND c.relkind IN ('r', 'p')) AS est
         FROM information_schema.tables
         WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%' AND left(table_schema, $1) = $2
           AND ($3::text IS NULL OR table_schema = $3) ORDER BY 1, 2`,
        [prefix.length, prefix, schema === undefined ? null : this.schemaName(schema)],
      );
      return r.rows
        .map((x) => ({
          schema: String(x.table_schema).slice(prefix.length),
          name: String(x.table_name),
          kind: (x.table_type === 'VIEW' ? 'view' : 'table') as TableInfo['kind'],
          estimatedRows: x.est === null ? null : Number(x.est),
        }))
        .filter((t) => t.schema !== META && !t.name.startsWith(WAREHOUSE_STAGING_PREFIX));
    });
  }

  private async columnsOn(c: pg.PoolClient, schema: string, table: string): Promise<ColumnInfo[] | null> {
    const r = await c.query(
      `SELECT column_name, data_type, numeric_precision, numeric_scale, udt_name, is_nullable FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [this.schemaName(schema), table],
    );
    if (!r.rowCount) return null;
    return r.rows.map((x) => ({
      name: x.column_name,
      type: x.data_type === 'numeric' && x.numeric_precision !== null ? `numeric(${x.numeric_precision},${x.numeric_scale})` : x.data_type === 'ARRAY' ? `${String(x.udt_name).replace(/^_/, '')}[]` : x.data_type,
      nullable: x.is_nullable === 'YES',
    }));
  }

  describeTable(schema: string, table: string): Promise<ColumnInfo[] | null> {
    return this.write((c) => this.columnsOn(c, schema, table));
  }

  async unload(schema: string, table: string, file: StagedFile, filter?: UnloadFilter): Promise<{ rows: number }> {
    if (file.format !== 'csv') throw new Error(`PostgreSQL unloads CSV files; got ${file.format}.`);
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const from = filter ? `(SELECT * FROM ${this.q(schema, table)} WHERE ${pgIdent(filter.column)} = ${pgLiteral(filter.equals)})` : this.q(schema, table);
    return this.write(async (c) => {
      const copy = c.query(copyTo(`COPY ${from} TO STDOUT WITH (FORMAT csv, HEADER ${file.header === false ? 'false' : 'true'}, DELIMITER ${pgLiteral(file.delimiter ?? ',')})`));
      await pipeline(copy, fs.createWriteStream(file.path));
      return { rows: Number(copy.rowCount ?? 0) };
    });
  }

  dbtTarget(): DbtTarget {
    const s = this.settings;
    const password = this.env(s.password_env);
    return {
      adapter: 'postgres',
      requirements: POSTGRES_DBT_REQUIREMENTS,
      profile: {
        type: 'postgres',
        host: s.host,
        port: s.port,
        user: s.user,
        password: `{{ env_var('${s.password_env}') }}`,
        dbname: s.database,
        schema: this.schemaName('main'),
        threads: 1,
        ...(s.ssl ? { sslmode: 'require' } : {}),
      },
      // generated sources files name `<schema_prefix>raw_<source>` through this variable
      env: { ...(password === undefined ? {} : { [s.password_env]: password }), [WAREHOUSE_SCHEMA_PREFIX_ENV]: s.schema_prefix },
      venv: postgresDbtVenv,
    };
  }

  /** Superset and marimo connect as the read-only role through psycopg2 */
  readOnlyConnection(): ReadOnlyConnection {
    const s = this.settings;
    return {
      sqlalchemyUrl: `postgresql+psycopg2://${encodeURIComponent(s.read_user)}@${s.host}:${s.port}/${encodeURIComponent(s.database)}`,
      connectArgs: s.ssl ? { sslmode: 'require' } : {},
      passwordEnv: s.read_password_env,
      password: this.env(s.read_password_env),
      drivers: POSTGRES_SQLALCHEMY_DRIVERS,
      schemaName: (schema) => this.schemaName(schema),
    };
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return fn(); // a server takes concurrent writers
  }

  async publish(): Promise<void> {
    // readers connect to the server with the read-only role: there is no copy to publish
  }

  async health(): Promise<WarehouseHealth> {
    const started = performance.now();
    try {
      const r = await this.write((c) => c.query('SELECT version() AS v'));
      return { type: 'postgres', ok: true, version: String(r.rows[0].v).split(' on ')[0], latencyMs: Math.round(performance.now() - started), location: this.location };
    } catch (e) {
      const err = e as Error & { code?: string };
      const hint = err instanceof MissingSecretError ? '' : ' Check that the server is running and warehouse.host/port/database/user in .basin/project.yml.';
      return { type: 'postgres', ok: false, message: `${err.message}${hint}`, location: this.location };
    }
  }

  /**
   * Creates the read-only role when missing (needs CREATEROLE), sets its password from
   * `read_password_env`, makes its transactions read-only by default and lets it connect and read.
   */
  async provision(): Promise<void> {
    const s = this.settings;
    const r = pgIdent(s.read_user);
    const password = this.secret(s.read_password_env);
    await this.write(async (c) => {
      const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [s.read_user]);
      // a password cannot be a bind parameter in DDL: a quoted literal
      if (!exists.rowCount) await c.query(`CREATE ROLE ${r} LOGIN PASSWORD ${pgLiteral(password)}`);
      else await c.query(`ALTER ROLE ${r} WITH LOGIN PASSWORD ${pgLiteral(password)}`);
      await c.query(`ALTER ROLE ${r} SET default_transaction_read_only = on`);
      await c.query(`GRANT CONNECT ON DATABASE ${pgIdent(s.database)} TO ${r}`);
      // whatever the writer creates later (dbt's schemas and models too) is readable without a re-grant
      await c.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${pgIdent(s.user)} GRANT USAGE ON SCHEMAS TO ${r}`);
      await c.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${pgIdent(s.user)} GRANT SELECT ON TABLES TO ${r}`);
      const schemas = await c.query(`SELECT nspname FROM pg_namespace WHERE left(nspname, $1) = $2 AND nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'`, [s.schema_prefix.length, s.schema_prefix]);
      for (const row of schemas.rows) {
        const n = pgIdent(row.nspname);
        await c.query(`GRANT USAGE ON SCHEMA ${n} TO ${r}`);
        await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${n} TO ${r}`);
        await c.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${n} GRANT SELECT ON TABLES TO ${r}`);
      }
    });
  }
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

/** the column names of a CSV file's header line */
async function csvHeader(file: StagedFile): Promise<string[]> {
  const fd = await fs.promises.open(file.path, 'r');
  try {
    const buf = Buffer.alloc(1 << 16);
    const { bytesRead } = await fd.read(buf, 0, buf.length, 0);
    const line = buf.subarray(0, bytesRead).toString('utf8').split(/\r?\n/)[0] ?? '';
    const d = file.delimiter ?? ',';
    return line.split(d).map((h) => h.trim().replace(/^"(.*)"$/, '$1').replace(/""/g, '"'));
  } finally {
    await fd.close();
  }
}

/** formatted type names of result columns (one catalog lookup per query) */
async function typeNames(c: pg.PoolClient, oids: number[]): Promise<Map<number, string>> {
  if (!oids.length) return new Map();
  const r = await c.query('SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])', [oids]);
  return new Map(r.rows.map((x) => [Number(x.oid), String(x.name)]));
}
