import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { ident } from '@basin/core';

/** How a column is typed in staging: the type read_json would infer for the same values. */
type Kind = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR' | 'DATE' | 'TIMESTAMP';

export interface BatchPlan {
  columns: Array<{ name: string; kind: Kind }>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
// only the ISO forms DuckDB's CAST reads as read_json does (UTC `Z` or no offset)
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z?$/;
// other strings read_json may take for a date or time: its reader decides those batches
const LOOKS_TEMPORAL = /^\d{4}-\d{2}-\d{2}|^\d{1,2}:\d{2}/;
const CHUNK = 2048;

/**
 * Column kinds of a batch of flat records, or null when the batch needs DuckDB's JSON reader: a
 * nested object or array, a BigInt, a column mixing kinds, a time with an offset, or two names
 * differing only in case. Integers (all safe) are BIGINT, other numbers DOUBLE; strings that are
 * all dates or ISO timestamps DATE/TIMESTAMP; an all-null column VARCHAR.
 */
export function planBatch(records: Record<string, unknown>[]): BatchPlan | null {
  const kinds = new Map<string, Kind | null>();
  for (const r of records) {
    for (const k in r) {
      const v = r[k];
      let kind: Kind | null;
      if (v === null || v === undefined) kind = null;
      else if (typeof v === 'number') kind = Number.isSafeInteger(v) ? 'BIGINT' : 'DOUBLE';
      else if (typeof v === 'string') {
        if (DATE.test(v)) kind = 'DATE';
        else if (TIMESTAMP.test(v)) kind = 'TIMESTAMP';
        else if (LOOKS_TEMPORAL.test(v)) return null;
        else kind = 'VARCHAR';
      } else if (typeof v === 'boolean') kind = 'BOOLEAN';
      else return null;
      const have = kinds.get(k);
      if (have === undefined || have === null) kinds.set(k, kind);
      else if (kind !== null && kind !== have) {
        const pair = new Set([have, kind]);
        if (pair.has('BIGINT') && pair.has('DOUBLE')) kinds.set(k, 'DOUBLE');
        else if (pair.has('DATE') && pair.has('TIMESTAMP')) kinds.set(k, 'TIMESTAMP');
        else return null;
      }
    }
  }
  const names = [...kinds.keys()];
  if (names.length === 0 || new Set(names.map((n) => n.toLowerCase())).size !== names.length) return null;
  return { columns: [...kinds].map(([name, kind]) => ({ name, kind: kind ?? 'VARCHAR' })) };
}

/** the appender's column type: numbers travel as DOUBLE (exact for safe integers), dates and times as text */
function carrier(kind: Kind): string {
  return kind === 'BIGINT' || kind === 'DOUBLE' ? 'DOUBLE' : kind === 'BOOLEAN' ? 'BOOLEAN' : 'VARCHAR';
}

/**
 * Appends a batch into the temporary table `tmp` (created on this connection) through DuckDB's
 * appender, column by column in data chunks of 2,048 rows: no JSON text and no temp file. Returns
 * the SELECT list typing the columns as read_json would; a date or time column holding a value
 * DuckDB cannot read as one (2024-02-30) stays text, as read_json leaves it.
 */
export async function appendBatch(c: DuckDBConnection, tmp: string, plan: BatchPlan, records: Record<string, unknown>[]): Promise<string> {
  const cols = plan.columns;
  const table = `temp.main.${ident(tmp)}`;
  await c.run(`CREATE OR REPLACE TEMP TABLE ${ident(tmp)} (${cols.map((col) => `${ident(col.name)} ${carrier(col.kind)}`).join(', ')})`);
  const { DuckDBDataChunk } = await import('@duckdb/node-api');
  const appender = await c.createAppender(tmp, 'main', 'temp');
  try {
    const types = cols.map((_, i) => appender.columnType(i));
    for (let start = 0; start < records.length; start += CHUNK) {
      const end = Math.min(records.length, start + CHUNK);
      const chunk = DuckDBDataChunk.create(types, end - start);
      cols.forEach((col, ci) => {
        const values: DuckDBValue[] = new Array(end - start);
        for (let i = start; i < end; i++) {
          const v = records[i]![col.name];
          values[i - start] = v === undefined ? null : (v as DuckDBValue);
        }
        chunk.setColumnValues(ci, values);
      });
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  const temporal = cols.filter((col) => col.kind === 'DATE' || col.kind === 'TIMESTAMP');
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
