import { ident, literal, type Conn, type Warehouse } from '@basin/core';
import { SourceError } from '@basin/sdk';
import { META_SCHEMA, rejectsStaging, rejectsTable, STAGING_PREFIX, type LoadedTable, type ResourceLoad, type WidenedColumn } from './types.js';
import { widen } from './widen.js';
import { fileId, fileIdSql, FILES_TABLE } from './file-id.js';

/**
 * The commit half of a load: swaps every touched resource's staging into its raw table in ONE
 * transaction, together with a commit marker (`_basin_meta.sync_commits`) that lets a restart tell
 * whether the cursor state of this sync belongs to committed data. Replace (full refresh or a `replace`
 * resource) renames staging over the table; append/merge inserts into it, after dropping rows of
 * forgotten files (and, for merge, of updated keys). A failure rolls back: the previous tables stay.
 */
export async function commitLoad(warehouse: Warehouse, o: { schema: string; source: string; syncId: string; loadedAt: Date; resources: ResourceLoad[]; fullRefresh: boolean }): Promise<LoadedTable[]> {
  return warehouse.write(
    async (c) => {
      await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(META_SCHEMA)}`);
      await c.run(`CREATE TABLE IF NOT EXISTS ${ident(META_SCHEMA)}.sync_commits (sync_id VARCHAR PRIMARY KEY, source VARCHAR, committed_at TIMESTAMP)`);
      await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(o.schema)}`);
      const out: LoadedTable[] = [];
      await c.run('BEGIN TRANSACTION');
      try {
        for (const r of o.resources) {
          const t = await swapOne(c, o.schema, o.syncId, r, o.fullRefresh);
          await recordFiles(c, o.schema, o.syncId, o.loadedAt, r, o.fullRefresh || r.spec?.writeDisposition === 'replace');
          out.push(t);
        }
        await c.run(`INSERT INTO ${ident(META_SCHEMA)}.sync_commits VALUES (${literal(o.syncId)}, ${literal(o.source)}, now())`);
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

async function swapOne(c: Conn, schema: string, syncId: string, r: ResourceLoad, fullRefresh: boolean): Promise<LoadedTable> {
  const target = `${ident(schema)}.${ident(r.name)}`;
  const stg = `${ident(schema)}.${ident(r.staging)}`;
  const exists = await tableExists(c, schema, r.name);
  const replace = fullRefresh || r.spec?.writeDisposition === 'replace';
  let previousTypes = exists ? await columnTypes(c, target) : new Map<string, string>();
  // a table from before file ids (a path on every row) takes this sync's rows once it has them too
  const upgraded = exists && !replace && previousTypes.has(LEGACY_FILE_COLUMN) && !previousTypes.has('_basin_file_id');
  if (upgraded) previousTypes = await upgradeFileColumn(c, schema, r.name);
  const before = exists ? Number((await c.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows()[0]![0]) : 0;
  const guard = (after: number) => {
    if (before > 0 && after === 0 && !fullRefresh) {
      throw new SourceError(
        'would_empty_table',
        `This sync would leave ${schema}.${r.name} empty (it has ${before} rows); nothing was changed. Run a full refresh to allow it.`,
        { table: `${schema}.${r.name}`, rows: before },
      );
    }
  };
  const changes = changeRows(r, stg);
  let change: LoadedTable['change'] = { kind: 'rebuilt' };
  if (replace || !exists) {
    if (r.created) {
      guard(r.rows);
      if (exists) await c.run(`DROP TABLE ${target}`);
      if (changes) {
        await c.run(`CREATE TABLE ${target} AS ${changes}`);
        await c.run(`DROP TABLE ${stg}`);
      } else await c.run(`ALTER TABLE ${stg} RENAME TO ${ident(r.name)}`);
    } else if (exists) {
      guard(0);
      await c.run(`DELETE FROM ${target}`);
    }
  } else {
    const have = previousTypes;
    let retyped = false;
    if (r.created) {
      // schema evolution first: DuckDB wants ALTERs before other changes to the table in a transaction
      for (const [col, type] of r.columns) {
        if (col === r.spec?.deleteFlag) continue;
        const was = have.get(col);
        if (was === undefined) await c.run(`ALTER TABLE ${target} ADD COLUMN ${ident(col)} ${type}`);
        else if (widen(was, type) !== was) {
          await c.run(`ALTER TABLE ${target} ALTER COLUMN ${ident(col)} TYPE ${widen(was, type)}`);
          retyped = true;
        }
      }
    }
    if (r.forget.size && have.has('_basin_file_id')) await c.run(`DELETE FROM ${target} WHERE _basin_file_id IN (${[...r.forget].map(fileId).join(', ')})`);
    if (r.created) {
      const pk = r.spec?.writeDisposition === 'merge' ? (r.spec.primaryKey ?? []).filter((k) => have.has(k) && r.columns.has(k)) : [];
      if (pk.length) {
        await c.run(`DELETE FROM ${target} AS t USING ${stg} AS s WHERE ${pk.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' AND ')}`);
      }
      await c.run(`INSERT INTO ${target} BY NAME ${changes ?? `SELECT * FROM ${stg}`}`);
      await c.run(`DROP TABLE ${stg}`);
    }
    // a delete flag removes keys the table keeps no row of: a server cannot tell them from this sync's rows
    const deletes = !!(r.spec?.deleteFlag && r.columns.has(r.spec.deleteFlag));
    if (!retyped && !deletes && !upgraded) {
      const pk = r.spec?.writeDisposition === 'merge' ? (r.spec.primaryKey ?? []).filter((k) => have.has(k) && r.columns.has(k)) : [];
      const forgotFiles = r.forget.size && have.has('_basin_file_id') ? [...r.forget] : [];
      change = { kind: pk.length ? 'merged' : 'appended', primaryKey: pk, forgotFiles };
    }
    const after = Number((await c.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows()[0]![0]);
    guard(after);
  }
  const rejects = await swapRejects(c, schema, r, replace);
  const present = await tableExists(c, schema, r.name);
  const rows = present ? Number((await c.runAndReadAll(`SELECT count(*) FROM ${target}`)).getRows()[0]![0]) : 0;
  const described = present ? ((await c.runAndReadAll(`DESCRIBE ${target}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string; null: string }>) : [];
  const columns = described.map((x) => ({ name: x.column_name, type: x.column_type, nullable: x.null === 'YES' }));
  const widened = r.created ? await widenedColumns(c, target, syncId, r, previousTypes, columns) : [];
  return { name: r.name, schema, rows, loaded: r.rows, columns, rejected: r.rejected, rejectsTable: rejects, widened, change };
}

/** the per-row source-file name of tables written before `_basin_file_id` */
const LEGACY_FILE_COLUMN = '_basin_source_file';

/**
 * Rewrites a table that still names its source file on every row (`_basin_source_file`, before
 * issue 19) to the id layout: `_basin_file_id` in its place, the names in `_basin_files`. Runs once,
 * inside the sync's commit transaction; returns the table's new column types.
 */
async function upgradeFileColumn(c: Conn, schema: string, table: string): Promise<Map<string, string>> {
  const target = `${ident(schema)}.${ident(table)}`;
  const tmp = `${ident(schema)}.${ident(`${STAGING_PREFIX}${table}__upgrade`)}`;
  await c.run(`CREATE TABLE ${tmp} AS SELECT * EXCLUDE (${LEGACY_FILE_COLUMN}), ${fileIdSql(LEGACY_FILE_COLUMN)} AS _basin_file_id FROM ${target}`);
  await createFilesTable(c, schema);
  await c.run(
    `INSERT INTO ${ident(schema)}.${FILES_TABLE} SELECT ${fileIdSql(LEGACY_FILE_COLUMN)}, ${literal(table)}, ${LEGACY_FILE_COLUMN}, TRY_CAST(arg_max(_basin_sync_id, _basin_loaded_at) AS UUID), max(_basin_loaded_at) FROM ${target} WHERE ${LEGACY_FILE_COLUMN} IS NOT NULL GROUP BY ${LEGACY_FILE_COLUMN}`,
  );
  await c.run(`DROP TABLE ${target}`);
  await c.run(`ALTER TABLE ${tmp} RENAME TO ${ident(table)}`);
  return columnTypes(c, target);
}

function createFilesTable(c: Conn, schema: string): Promise<unknown> {
  return c.run(`CREATE TABLE IF NOT EXISTS ${ident(schema)}.${FILES_TABLE} (file_id BIGINT, table_name VARCHAR, source_file VARCHAR, sync_id UUID, loaded_at TIMESTAMP)`);
}

/**
 * Keeps `raw_<source>._basin_files` in step with the table, in the commit's transaction: the files
 * this sync loaded replace their earlier entries, forgotten files go, a replace starts the table's
 * entries afresh. Rows carry only `_basin_file_id`; this table names the file.
 */
async function recordFiles(c: Conn, schema: string, syncId: string, loadedAt: Date, r: ResourceLoad, replace: boolean): Promise<void> {
  const gone = new Set([...r.forget, ...r.loadedFiles]);
  if (!r.loadedFiles.size && !(await tableExists(c, schema, FILES_TABLE))) return;
  if (!r.loadedFiles.size && !replace && !gone.size) return;
  await createFilesTable(c, schema);
  const files = `${ident(schema)}.${FILES_TABLE}`;
  if (replace) await c.run(`DELETE FROM ${files} WHERE table_name = ${literal(r.name)}`);
  else if (gone.size) await c.run(`DELETE FROM ${files} WHERE table_name = ${literal(r.name)} AND file_id IN (${[...gone].map(fileId).join(', ')})`);
  if (!r.loadedFiles.size) return;
  const at = `CAST(${literal(loadedAt.toISOString())} AS TIMESTAMP)`;
  const sync = `CAST(${literal(syncId)} AS UUID)`;
  await c.run(`INSERT INTO ${files} VALUES ${[...r.loadedFiles].map((f) => `(${fileId(f)}, ${literal(r.name)}, ${literal(f)}, ${sync}, ${at})`).join(', ')}`);
}

/**
 * The rows a change stream's staging stores (a merge resource with `latestBy` and/or `deleteFlag`,
 * e.g. pg_replication): the latest row of each key, and of those only the ones that are not deletes,
 * without the delete flag column. Null for any other resource (staging is stored as it is).
 */
function changeRows(r: ResourceLoad, stg: string): string | null {
  const spec = r.spec;
  const pk = (spec?.primaryKey ?? []).filter((k) => r.columns.has(k));
  if (!r.created || spec?.writeDisposition !== 'merge' || !pk.length) return null;
  const latest = spec.latestBy && r.columns.has(spec.latestBy) ? spec.latestBy : null;
  const flag = spec.deleteFlag && r.columns.has(spec.deleteFlag) ? spec.deleteFlag : null;
  if (!latest && !flag) return null;
  const rows = latest ? `(SELECT * FROM ${stg} QUALIFY row_number() OVER (PARTITION BY ${pk.map(ident).join(', ')} ORDER BY ${ident(latest)} DESC) = 1)` : stg;
  return flag ? `SELECT * EXCLUDE (${ident(flag)}) FROM ${rows} WHERE ${ident(flag)} IS NOT TRUE` : `SELECT * FROM ${rows}`;
}

async function columnTypes(c: Conn, table: string): Promise<Map<string, string>> {
  const rows = (await c.runAndReadAll(`DESCRIBE ${table}`)).getRowObjectsJson() as Array<{ column_name: string; column_type: string }>;
  return new Map(rows.map((x) => [x.column_name, x.column_type]));
}

/**
 * The columns this load widened (a type both old and new values fit in), compared with the table
 * before the sync or, for a new table, with the first batch: how many of this sync's values do not fit
 * the old type, and one of them, so "DATE became VARCHAR" comes with the few odd values that caused it.
 */
async function widenedColumns(c: Conn, target: string, syncId: string, r: ResourceLoad, previous: Map<string, string>, now: Array<{ name: string; type: string }>): Promise<WidenedColumn[]> {
  const out: WidenedColumn[] = [];
  for (const col of now) {
    const from = previous.get(col.name) ?? r.widenedFrom.get(col.name);
    if (!from || from === col.type || widen(from, col.type) !== col.type) continue;
    const q = ident(col.name);
    const odd = `${q} IS NOT NULL AND (TRY_CAST(${q} AS ${from}) IS NULL OR CAST(TRY_CAST(${q} AS ${from}) AS ${col.type}) IS DISTINCT FROM ${q})`;
    const [n, example] = (await c.runAndReadAll(`SELECT count(*), CAST(any_value(${q}) AS VARCHAR) FROM ${target} WHERE _basin_sync_id = ${literal(syncId)} AND ${odd}`)).getRows()[0] ?? [0, null];
    out.push({ column: col.name, from, to: col.type, values: Number(n ?? 0), example: example === null || example === undefined ? null : String(example) });
  }
  return out;
}

/**
 * Keeps `<table>__rejects` in step with the table: a replace swaps in this sync's rejects; an append
 * drops the earlier rejects of the files it reloaded or forgot, then adds this sync's.
 */
async function swapRejects(c: Conn, schema: string, r: ResourceLoad, replace: boolean): Promise<string | null> {
  const name = rejectsTable(r.name);
  const table = `${ident(schema)}.${ident(name)}`;
  const stg = `${ident(schema)}.${ident(rejectsStaging(r))}`;
  const exists = await tableExists(c, schema, name);
  if (exists && replace) await c.run(`DROP TABLE ${table}`);
  else if (exists) {
    const files = [...new Set([...r.loadedFiles, ...r.forget])];
    if (files.length) await c.run(`DELETE FROM ${table} WHERE file IN (${files.map(literal).join(', ')})`);
  }
  if (r.rejectsCreated) {
    if (exists && !replace) {
      await c.run(`INSERT INTO ${table} SELECT * FROM ${stg}`);
      await c.run(`DROP TABLE ${stg}`);
    } else await c.run(`ALTER TABLE ${stg} RENAME TO ${ident(name)}`);
  }
  return r.rejectsCreated || (exists && !replace) ? `${schema}.${name}` : null;
}

export async function tableExists(c: Conn, schema: string, table: string): Promise<boolean> {
  const r = await c.runAndReadAll(`SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = ${literal(schema)} AND table_name = ${literal(table)}`);
  return r.getRows().length > 0;
}

/**
 * Drops staging tables left by a process that died mid-load (nothing is syncing at start-up), then
 * checkpoints so the blocks they held are free for the next load instead of growing the file.
 */
export async function dropStaleStaging(warehouse: Warehouse): Promise<number> {
  return warehouse.write(
    async (c) => {
      const rows = (await c.runAndReadAll(`SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() AND starts_with(table_name, ${literal(STAGING_PREFIX)})`)).getRowObjectsJson() as Array<{ schema_name: string; table_name: string }>;
      for (const r of rows) await c.run(`DROP TABLE IF EXISTS ${ident(r.schema_name)}.${ident(r.table_name)}`);
      if (rows.length) await c.run('CHECKPOINT');
      return rows.length;
    },
    { staging: true },
  );
}

/** sync ids whose data was committed (the marker row is in the same transaction as the swap) */
export async function committedSyncIds(warehouse: Warehouse, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  return warehouse.write(async (c) => {
    if (!(await tableExists(c, META_SCHEMA, 'sync_commits'))) return new Set<string>();
    const rows = (await c.runAndReadAll(`SELECT sync_id FROM ${ident(META_SCHEMA)}.sync_commits WHERE sync_id IN (${ids.map(literal).join(', ')})`)).getRows();
    return new Set(rows.map((r) => String(r[0])));
  }, { staging: true });
}
