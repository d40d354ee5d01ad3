import type { DuckDBConnection } from '@duckdb/node-api';
import type { Vector } from '@duckdb/node-bindings';
import { ident } from '@basin/core';

/** How a column is typed in staging: the type read_json would infer for the same values. */
type Kind = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR' | 'DATE' | 'TIMESTAMP';

export interface BatchPlan {
  columns: Array<{ name: string; kind: Kind }>;
  /** each column's values by row (a record without the field: a hole, loaded as NULL) */
  values: unknown[][];
  /** DATE/TIMESTAMP columns holding a value JavaScript cannot vouch for: DuckDB checks them */
  doubtful: Set<string>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
// only the ISO forms DuckDB's CAST reads as read_json does (UTC `Z` or no offset)
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z?$/;
// other strings read_json may take for a date or time: its reader decides those batches
const LOOKS_TEMPORAL = /^\d{4}-\d{2}-\d{2}|^\d{1,2}:\d{2}/;
const CHUNK = 2048;

const digits = (s: string, at: number, n: number): number => {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 10 + s.charCodeAt(i) - 48;
  return v;
};
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * True when a string that matched DATE or TIMESTAMP is surely a real calendar date and time
 * (DuckDB's CAST reads it); false leaves the column for DuckDB to check (2024-02-30, 24:00:00).
 */
function surelyValid(s: string): boolean {
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > DAYS[m - 1]!) return false;
  if (m === 2 && d === 29 && (y % 4 !== 0 || (y % 100 === 0 && y % 400 !== 0))) return false;
  return s.length === 10 || (digits(s, 11, 2) < 24 && digits(s, 14, 2) < 60 && digits(s, 17, 2) < 60);
}

/**
 * Column kinds and values of a batch of flat records, or null when the batch needs DuckDB's JSON
 * reader: a nested object or array, a BigInt, a column mixing kinds, a time with an offset, or two
 * names differing only in case. Integers (all safe) are BIGINT, other numbers DOUBLE; strings that
 * are all dates or ISO timestamps DATE/TIMESTAMP; an all-null column VARCHAR. One pass over the
 * records gathers the values column by column for the appender.
 */
export function planBatch(records: Record<string, unknown>[]): BatchPlan | null {
  const n = records.length;
  const index = new Map<string, number>();
  const names: string[] = [];
  const kinds: Array<Kind | null> = [];
  const values: unknown[][] = [];
  const doubtful = new Set<string>();
  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    let next = 0;
    for (const k in r) {
      // records of one API mostly share their key order: the next column is the likely one
      let ci = next < names.length && names[next] === k ? next : index.get(k);
      if (ci === undefined) {
        ci = names.length;
        names.push(k);
        index.set(k, ci);
        kinds.push(null);
        values.push(new Array(n));
      }
      next = ci + 1;
      const v = r[k];
      if (v === null || v === undefined) continue;
      const have = kinds[ci]!;
      let kind: Kind;
      if (typeof v === 'string') {
        // a column already holding plain text stays text whatever else it holds (read_json agrees)
        if (have === 'VARCHAR') kind = 'VARCHAR';
        else if (DATE.test(v)) kind = 'DATE';
        else if (TIMESTAMP.test(v)) kind = 'TIMESTAMP';
        else if (LOOKS_TEMPORAL.test(v)) return null;
        else kind = 'VARCHAR';
        if (kind !== 'VARCHAR' && !doubtful.has(k) && !surelyValid(v)) doubtful.add(k);
      } else if (typeof v === 'number') kind = Number.isSafeInteger(v) ? 'BIGINT' : 'DOUBLE';
      else if (typeof v === 'boolean') kind = 'BOOLEAN';
      else return null;
      if (have === null) kinds[ci] = kind;
      else if (kind !== have) {
        if ((have === 'BIGINT' && kind === 'DOUBLE') || (have === 'DOUBLE' && kind === 'BIGINT')) kinds[ci] = 'DOUBLE';
        else if ((have === 'DATE' && kind === 'TIMESTAMP') || (have === 'TIMESTAMP' && kind === 'DATE')) kinds[ci] = 'TIMESTAMP';
        else return null;
      }
      values[ci]![i] = v;
    }
  }
  if (names.length === 0 || new Set(names.map((x) => x.toLowerCase())).size !== names.length) return null;
  return { columns: names.map((name, i) => ({ name, kind: kinds[i] ?? 'VARCHAR' })), values, doubtful };
}

/** the appender's column type: numbers travel as DOUBLE (exact for safe integers), dates and times as text */
function carrier(kind: Kind): 'DOUBLE' | 'BOOLEAN' | 'VARCHAR' {
  return kind === 'BIGINT' || kind === 'DOUBLE' ? 'DOUBLE' : kind === 'BOOLEAN' ? 'BOOLEAN' : 'VARCHAR';
}

/**
 * Writes rows [start, start + count) of one column into a data chunk's vector: numbers and booleans
 * as one typed-array copy, short ASCII strings too, other strings one by one, NULLs in the validity mask. (node-api's per-item
 * setColumnValues keeps a cache of every value; this writes the vector directly.)
 */
// loaded on first use with the node-api, so a process that never loads records never loads DuckDB here
type Bindings = typeof import('@duckdb/node-bindings');
let duckdb: Bindings | undefined;

function fillVector(duckdb: Bindings, vector: Vector, type: 'DOUBLE' | 'BOOLEAN' | 'VARCHAR', values: unknown[], start: number, count: number, bufs: { f64: Float64Array<ArrayBuffer>; u8: Uint8Array<ArrayBuffer>; mask: Uint8Array<ArrayBuffer>; strings: Uint8Array<ArrayBuffer> }): void {
  const mask = bufs.mask;
  let nulls = 0;
  const setNull = (i: number) => {
    if (nulls++ === 0) mask.fill(0xff);
    mask[i >> 3] = mask[i >> 3]! & ~(1 << (i & 7));
  };
  if (type === 'VARCHAR') {
    // ASCII strings of up to 12 bytes are written inline in DuckDB's 16-byte string_t (length, then
    // the bytes; duckdb.h documents the layout) with one copy for the chunk; longer ones one by one
    const inline = bufs.strings;
    inline.fill(0, 0, count * 16);
    const long: number[] = [];
    for (let i = 0; i < count; i++) {
      const v = values[start + i];
      if (v === null || v === undefined) {
        setNull(i);
        continue;
      }
      const str = v as string;
      const n = str.length;
      let ok = n <= 12;
      for (let j = 0; ok && j < n; j++) {
        const ch = str.charCodeAt(j);
        if (ch > 127) ok = false;
        else inline[i * 16 + 4 + j] = ch;
      }
      if (ok) {
        inline[i * 16] = n;
      } else {
        inline.fill(0, i * 16, i * 16 + 16);
        long.push(i);
      }
    }
    duckdb.copy_data_to_vector(vector, 0, inline.buffer, 0, count * 16);
    for (const i of long) duckdb.vector_assign_string_element(vector, i, values[start + i] as string);
  } else if (type === 'DOUBLE') {
    const f64 = bufs.f64;
    for (let i = 0; i < count; i++) {
      const v = values[start + i];
      if (v === null || v === undefined) {
        f64[i] = 0;
        setNull(i);
      } else f64[i] = v as number;
    }
    duckdb.copy_data_to_vector(vector, 0, f64.buffer, 0, count * 8);
  } else {
    const u8 = bufs.u8;
    for (let i = 0; i < count; i++) {
      const v = values[start + i];
      if (v === null || v === undefined) {
        u8[i] = 0;
        setNull(i);
      } else u8[i] = v ? 1 : 0;
    }
    duckdb.copy_data_to_vector(vector, 0, u8.buffer, 0, count);
  }
  if (nulls) {
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, mask.buffer, 0, Math.ceil(count / 64) * 8);
  }
}

/**
 * Appends a planned batch into the temporary table `tmp` (created on this connection) through
 * DuckDB's appender, column by column in data chunks of 2,048 rows: no JSON text and no temp file.
 * Returns the SELECT list typing the columns as read_json would; a date or time column holding a
 * value DuckDB cannot read as one (2024-02-30) stays text, as read_json leaves it.
 */
export async function appendBatch(c: DuckDBConnection, tmp: string, plan: BatchPlan, records: Record<string, unknown>[]): Promise<string> {
  const cols = plan.columns;
  const table = `temp.main.${ident(tmp)}`;
  const carriers = cols.map((col) => carrier(col.kind));
  await c.run(`CREATE OR REPLACE TEMP TABLE ${ident(tmp)} (${cols.map((col, i) => `${ident(col.name)} ${carriers[i]}`).join(', ')})`);
  const { DuckDBDataChunk } = await import('@duckdb/node-api');
  const bindings = (duckdb ??= (await import('@duckdb/node-bindings')).default);
  const appender = await c.createAppender(tmp, 'main', 'temp');
  try {
    const types = cols.map((_, i) => appender.columnType(i));
    const bufs = { f64: new Float64Array(CHUNK), u8: new Uint8Array(CHUNK), mask: new Uint8Array(CHUNK / 8), strings: new Uint8Array(CHUNK * 16) };
    for (let start = 0; start < records.length; start += CHUNK) {
      const count = Math.min(CHUNK, records.length - start);
      const chunk = DuckDBDataChunk.create(types, count);
      for (let ci = 0; ci < cols.length; ci++) fillVector(bindings, bindings.data_chunk_get_vector(chunk.chunk, ci), carriers[ci]!, plan.values[ci]!, start, count, bufs);
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  // only columns with a value JavaScript could not vouch for are checked by DuckDB's own CAST
  const temporal = cols.filter((col) => (col.kind === 'DATE' || col.kind === 'TIMESTAMP') && plan.doubtful.has(col.name));
  const unreadable = new Set<string>();
  if (temporal.length) {
    const row = (await c.runAndReadAll(`SELECT ${temporal.map((col) => `count(*) FILTER (WHERE ${ident(col.name)} IS NOT NULL AND TRY_CAST(${ident(col.name)} AS ${col.kind}) IS NULL)`).join(', ')} FROM ${table}`)).getRows()[0] ?? [];
    temporal.forEach((col, i) => Number(row[i] ?? 0) > 0 && unreadable.add(col.name));
  }
  return cols
    .map((col) => {
      const id = ident(col.name);
      const cast = col.kind === 'BIGINT' || ((col.kind === 'DATE' || col.kind === 'TIMESTAMP') && !unreadable.has(col.name));
      return cast ? `CAST(${id} AS ${col.kind}) AS ${id}` : id;
    })
    .join(', ');
}
