import { performance } from 'node:perf_hooks';
import { guardSelect } from './sql-guard.js';
import { queryValueConverter } from './json-values.js';
import { QueryError } from './query-error.js';
import type { ReadOnlyInstance } from './read-only-instance.js';

/** One query as the server hands it to a query process. */
export interface QueryJob {
  sql: string;
  /** the serving copy */
  file: string;
  maxRows: number;
  /** cap on the JSON response in bytes (api.query_max_response_bytes) */
  maxBytes: number;
}

/**
 * SQL texts that passed the guard, most recent last. The verdict depends on the text alone, so a
 * dashboard repeating the same query skips the parser round trips; refusals are not cached.
 */
const ACCEPTED_CACHE_SIZE = 256;
const accepted = new Map<string, true>();
function rememberAccepted(sql: string): void {
  accepted.delete(sql);
  accepted.set(sql, true);
  if (accepted.size > ACCEPTED_CACHE_SIZE) accepted.delete(accepted.keys().next().value!);
}

/**
 * Runs one guarded SELECT and renders the response body as JSON bytes. Rows are fetched chunk by
 * chunk and rendered one by one, stopping at `maxRows` rows or when the next row would take the body
 * past `maxBytes`: a huge result is never materialized, and the response says why it was cut
 * (`truncated_reason`).
 */
export async function runQuery(engine: ReadOnlyInstance, job: QueryJob): Promise<Buffer> {
  const started = performance.now();
  try {
    const conn = await engine.connection(job.file);
    if (!accepted.has(job.sql)) {
      await guardSelect(conn, job.sql, engine.tableFunctions);
      rememberAccepted(job.sql);
    }
    const result = await conn.stream(job.sql);
    const types = result.columnTypes();
    const columns = JSON.stringify(result.columnNames().map((name, i) => ({ name, type: types[i]!.toString() })));
    // the body is written straight into one growing buffer (no array of row strings, no join, no copy)
    const out = new ByteWriter(Math.min(job.maxBytes + 256, 64 * 1024), job.maxBytes + 256);
    out.write(`{"columns":${columns},"rows":[`);
    const limit = job.maxBytes - 128; // room for the tail
    let rows = 0;
    let truncated: 'rows' | 'bytes' | null = null;
    fetch: for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      // row by row: a chunk of wide rows is never converted whole
      for (let i = 0; i < chunk.rowCount; i++) {
        if (rows === job.maxRows) {
          truncated = 'rows';
          break fetch;
        }
        const text = JSON.stringify(chunk.convertRowValues(i, queryValueConverter));
        if (out.length + Buffer.byteLength(text) + 1 > limit) {
          truncated = 'bytes';
          break fetch;
        }
        out.write(rows === 0 ? text : `,${text}`);
        rows++;
      }
    }
    const elapsed = Math.round((performance.now() - started) * 10) / 10;
    out.write(`],"row_count":${rows},"truncated":${truncated !== null},${truncated ? `"truncated_reason":"${truncated}",` : ''}"elapsed_ms":${elapsed}}`);
    return out.bytes();
  } catch (e) {
    if (e instanceof QueryError) throw e;
    const err = fromDuckDbError(e as Error);
    // the serving copy's absolute path is the server's business
    throw new QueryError(err.status, err.code, err.message.split(job.file).join('serving.db'), err.details);
  }
}

/** DuckDB's binder/runtime messages name tables and columns of the query, never server paths or secrets. */
function fromDuckDbError(e: Error): QueryError {
  const message = String(e.message ?? e).trim();
  if (/^(Permission|Invalid Input) Error: .*(external access|file system operations|disabled by configuration|read-only mode)/i.test(message)) {
    return new QueryError(400, 'query_not_allowed', `Refused by the read-only query engine: ${message}`);
  }
  if (/^Out of Memory Error/i.test(message) || /could not allocate|failed to allocate|max_temp_directory_size/i.test(message)) {
    return new QueryError(400, 'query_resource_limit', `The query needs more memory than a query may use (api.query_memory_mb); narrow it (filter, aggregate, LIMIT). ${message}`);
  }
  if (/^INTERRUPT/i.test(message)) return new QueryError(400, 'query_timeout', 'The query was interrupted.');
  return new QueryError(400, 'query_failed', message);
}

/** An append-only UTF-8 buffer that doubles when full. */
class ByteWriter {
  private buf: Buffer;
  length = 0;
  constructor(
    initial: number,
    private readonly max: number,
  ) {
    this.buf = Buffer.allocUnsafe(initial);
  }
  write(text: string): void {
    const need = this.length + Buffer.byteLength(text);
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(need, Math.min(this.buf.length * 2, this.max)));
      this.buf.copy(next, 0, 0, this.length);
      this.buf = next;
    }
    this.length += this.buf.write(text, this.length);
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
