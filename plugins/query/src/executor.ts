import { performance } from 'node:perf_hooks';
import type { Json } from '@duckdb/node-api';
import { BasinError, isBasinError, coreErrors } from '@basin/core';
import { guardSelect } from './sql-guard.js';
import { queryValueConverter } from './json-values.js';
import type { ServingReader } from './serving-reader.js';
import { queryErrors } from './errors.js';

export const MAX_SQL_BYTES = 100 * 1024;

/**
 * SQL texts that passed the guard, most recent last. The verdict depends on the text alone, so a
 * dashboard repeating the same query skips the two parser round trips; refusals are not cached.
 */
const ACCEPTED_CACHE_SIZE = 256;
const accepted = new Map<string, true>();
function rememberAccepted(sql: string): void {
  accepted.delete(sql);
  accepted.set(sql, true);
  if (accepted.size > ACCEPTED_CACHE_SIZE) accepted.delete(accepted.keys().next().value!);
}

export interface QueryLimits {
  maxRows: number;
  timeoutSeconds: number;
}

export interface QueryResult {
  columns: Array<{ name: string; type: string }>;
  rows: Json[][];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
}

/**
 * Runs one guarded SELECT on a fresh connection to the serving copy: at most `maxRows` rows are
 * read (streamed, so a huge result is never materialized), and the connection is interrupted after
 * `timeoutSeconds` (guard included).
 */
export async function executeQuery(reader: ServingReader, sql: string, limits: QueryLimits): Promise<QueryResult> {
  const bytes = Buffer.byteLength(sql, 'utf8');
  if (bytes > MAX_SQL_BYTES) {
    throw coreErrors.payload_too_large({ reason: `The SQL is ${bytes} bytes; at most ${MAX_SQL_BYTES} bytes (100 KB) are accepted.` }, { details: { limit_bytes: MAX_SQL_BYTES, bytes } });
  }
  const started = performance.now();
  const lease = await reader.acquire();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    lease.conn.interrupt();
  }, limits.timeoutSeconds * 1000);
  try {
    if (!accepted.has(sql)) {
      await guardSelect(lease.conn, sql);
      rememberAccepted(sql);
    }
    const result = await lease.conn.streamAndReadUntil(sql, limits.maxRows + 1);
    if (timedOut) throw timeoutError(limits.timeoutSeconds);
    const all = result.convertRows(queryValueConverter);
    const truncated = all.length > limits.maxRows;
    const rows = all.length > limits.maxRows ? all.slice(0, limits.maxRows) : all;
    const types = result.columnTypes();
    return {
      columns: result.columnNames().map((name, i) => ({ name, type: types[i]!.toString() })),
      rows,
      row_count: rows.length,
      truncated,
      elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  } catch (e) {
    if (timedOut) throw timeoutError(limits.timeoutSeconds);
    if (isBasinError(e)) throw e;
    throw fromDuckDbError(e as Error);
  } finally {
    clearTimeout(timer);
    lease.release();
  }
}

const timeoutError = (s: number) =>
  queryErrors.query_timeout({ seconds: s }, { details: { timeout_seconds: s } });

/** DuckDB's binder/runtime messages name tables and columns of the query, never server paths or secrets. */
function fromDuckDbError(e: Error): BasinError {
  const message = String(e.message ?? e).trim();
  if (/^(Permission|Invalid Input) Error: .*(external access|file system operations|disabled by configuration|read-only mode)/i.test(message)) {
    return queryErrors.query_not_allowed({ reason: `Refused by the read-only query engine: ${message}` });
  }
  if (/^INTERRUPT/i.test(message)) return queryErrors.query_timeout();
  return queryErrors.query_failed({ reason: message });
}
