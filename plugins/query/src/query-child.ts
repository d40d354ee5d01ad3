/**
 * Entry point of a query process (forked by QueryPool). It runs one query at a time on its own
 * read-only DuckDB instance, so a query's memory and CPU stay out of the server process: the server
 * watches this process's RSS and its wall-clock time, and kills it when either is exceeded.
 */
import { ReadOnlyInstance } from './read-only-instance.js';
import { runQuery, type QueryJob } from './query-runner.js';
import { QueryError, toErrorData, type QueryErrorData } from './query-error.js';

export type ToChild = { id: number; job: QueryJob };
export type FromChild = { id: number; ok: true; body: Uint8Array } | { id: number; ok: false; error: QueryErrorData } | { ready: true };

const memoryLimitMb = Number(process.env.BASIN_QUERY_DUCKDB_MB ?? 256);
const engine = new ReadOnlyInstance({ memoryLimitMb, threads: 1 });
const send = (m: FromChild) => process.send!(m);

process.on('message', (m: ToChild) => {
  void runQuery(engine, m.job).then(
    (body) => send({ id: m.id, ok: true, body }),
    (e) => send({ id: m.id, ok: false, error: e instanceof QueryError ? toErrorData(e) : { status: 400, code: 'query_failed', message: String((e as Error)?.message ?? e) } }),
  );
});
// the server going away (crash, kill -9) must not leave query processes behind
process.on('disconnect', () => {
  engine.close();
  process.exit(0);
});
send({ ready: true });
