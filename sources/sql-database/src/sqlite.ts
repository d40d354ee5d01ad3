import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SourceError, type SourceContext } from '@basin/sdk';
import type { DbTable } from './catalog.js';
import type { SqlDatabaseConfig } from './config.js';
import { quoteIdent, resourceName } from './ident.js';
import { rowBatches, type DbSession } from './session.js';

/**
 * A declared SQLite column type -> the PostgreSQL base type name the shared type map knows, by
 * SQLite's own affinity rules (https://sqlite.org/datatype3.html#determination_of_column_affinity).
 * Dates stay text: SQLite stores them as whatever text or number the writer chose.
 */
function pgType(declared: string): { typname: string; formatted: string } {
  const d = declared.toUpperCase();
  const dec = /^(?:DECIMAL|NUMERIC)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)/.exec(d);
  if (dec) return { typname: 'numeric', formatted: `numeric(${dec[1]},${dec[2]})` };
  if (d.includes('INT')) return { typname: 'int8', formatted: 'bigint' };
  if (/CHAR|CLOB|TEXT/.test(d)) return { typname: 'text', formatted: 'text' };
  if (/REAL|FLOA|DOUB/.test(d)) return { typname: 'float8', formatted: 'double precision' };
  if (d === 'BOOLEAN' || d === 'BOOL') return { typname: 'int2', formatted: 'smallint' };
  return { typname: 'text', formatted: d ? d.toLowerCase() : 'any' };
}

/** integers come back as BigInt (exact 64-bit) and blobs as Buffers: both to text, like PostgreSQL sends them */
function toPlain(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) {
    const v = row[k];
    if (typeof v === 'bigint') row[k] = v.toString();
    else if (Buffer.isBuffer(v)) row[k] = `\\x${v.toString('hex')}`;
  }
  return row;
}

/** SQLite: the file opened read-only; one read transaction holds the snapshot; rows iterated from the statement. */
export async function openSqlite(ctx: SourceContext<SqlDatabaseConfig>): Promise<DbSession> {
  const cfg = ctx.config;
  if (!cfg.path) throw new SourceError('config_invalid', 'sql_database with dialect sqlite needs path (the database file, relative to the project directory).');
  for (const k of ['connection_url_env', 'host', 'database', 'username', 'password_env'] as const) {
    if (cfg[k]) throw new SourceError('config_invalid', `sql_database with dialect sqlite reads the file in path; remove ${k}.`);
  }
  const file = path.resolve(ctx.projectDir, cfg.path);
  if (!fs.existsSync(file)) throw new SourceError('not_found', `SQLite database file ${cfg.path} was not found (looked at ${file}). Check path in the config.`, { path: cfg.path });
  const Database = (await import('better-sqlite3')).default;
  let db: BetterSqlite3.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (e) {
    throw new SourceError('connection_failed', `Could not open ${cfg.path} as a SQLite database: ${(e as Error).message}. Check path in the config.`, { path: cfg.path });
  }
  let closed = false;
  return {
    label: 'SQLite',
    namespace: 'main',
    place: `file "${cfg.path}"`,
    async version() {
      return String((db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v);
    },
    async catalog() {
      const tables = new Map<string, DbTable>();
      const list = db.prepare("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string; type: string }[];
      for (const r of list) {
        const t: DbTable = { name: r.name, resource: resourceName(r.name), kind: r.type === 'view' ? 'view' : 'table', columns: [], primaryKey: [] };
        const info = db.prepare('SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?) ORDER BY cid').all(r.name) as { name: string; type: string; nn: number; pk: number }[];
        for (const c of info) t.columns.push({ name: c.name, ...pgType(c.type), elem: null, notNull: c.nn === 1 || c.pk > 0 });
        t.primaryKey = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
        tables.set(r.name, t);
      }
      return tables;
    },
    async beginSnapshot() {
      // BEGIN is deferred: the first read takes the snapshot, which every later read of it sees
      db.exec('BEGIN');
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    },
    async commit() {
      if (db.inTransaction) db.exec('COMMIT');
    },
    quote: quoteIdent,
    param: () => '?',
    afterLookback: (col, _typname, v, d) => `${col} > datetime(${v}, '-' || ${d} || ' days')`,
    async scalar(sql, params) {
      const stmt = db.prepare(sql).safeIntegers(true);
      const row = stmt.get(...params) as Record<string, unknown> | undefined;
      const v = row ? Object.values(row)[0] : null;
      return typeof v === 'bigint' ? v.toString() : v;
    },
    async *batches(sql, params, size, signal) {
      const stmt = db.prepare(sql).safeIntegers(true);
      yield* rowBatches(stmt.iterate(...params) as IterableIterator<Record<string, unknown>>, size, signal, toPlain);
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
