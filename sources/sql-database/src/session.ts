import { SourceError } from '@basin/sdk';
import type { DbTable } from './catalog.js';

/** The database a `sql_database` source reads; `dialect` in the config picks it. */
export type Dialect = 'postgres' | 'mysql' | 'sqlite';

/**
 * One connection to the source database, as the shared catalog/snapshot/cursor code needs it. Each
 * dialect maps its column types onto PostgreSQL base type names (int4, numeric, timestamp...) so the
 * type map, the cursor rules and the incremental query are the same for all of them.
 */
export interface DbSession {
  /** 'PostgreSQL', 'MariaDB', 'MySQL' or 'SQLite', for messages and descriptions */
  readonly label: string;
  /** the namespace tables are read from (PostgreSQL schema, MySQL database, SQLite "main") */
  readonly namespace: string;
  /** the namespace in words for messages: schema "public", database "shop", file "shop.db" */
  readonly place: string;
  version(): Promise<string>;
  /** every table and view of the namespace, columns typed with PostgreSQL base type names */
  catalog(): Promise<Map<string, DbTable>>;
  /** starts the read-only transaction every table of the run is read in (one snapshot) */
  beginSnapshot(): Promise<void>;
  commit(): Promise<void>;
  quote(name: string): string;
  /** the text of bind parameter n (1-based) */
  param(n: number): string;
  /** `col > (value - days)` for a date/timestamp cursor with a lookback */
  afterLookback(col: string, typname: string, valueParam: string, daysParam: string): string;
  scalar(sql: string, params: unknown[]): Promise<unknown>;
  /** the rows of a query in batches of at most `size`, streamed (never the whole result in memory) */
  batches(sql: string, params: unknown[], size: number, signal: AbortSignal): AsyncGenerator<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * Groups streamed rows into batches of at most `size`, checking for cancellation between batches
 * (the MySQL and SQLite sessions; PostgreSQL fetches whole batches from a cursor).
 */
export async function* rowBatches(rows: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>, size: number, signal: AbortSignal, map: (row: Record<string, unknown>) => Record<string, unknown> = (r) => r): AsyncGenerator<Record<string, unknown>[]> {
  let batch: Record<string, unknown>[] = [];
  for await (const row of rows) {
    batch.push(map(row));
    if (batch.length >= size) {
      if (signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
