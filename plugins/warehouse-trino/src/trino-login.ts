// One Trino login over HTTP(S) (trino-client): runs a statement to completion and returns its rows, or
// throws a TrinoQueryError carrying Trino's error name. Cancels the query when a timeout passes.
import { BasicAuth, Trino, type QueryResult } from 'trino-client';

export interface TrinoLoginOptions {
  /** http://host:port of the coordinator */
  server: string;
  user: string;
  password?: string;
  catalog?: string;
  schema?: string;
  /** PEM of a CA or self-signed certificate to trust for https (a local coordinator's cert.pem) */
  ca?: string;
}

export interface TrinoResult {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  /** true when the row cap stopped reading (the query was cancelled) */
  truncated: boolean;
}

export class TrinoQueryError extends Error {
  constructor(
    message: string,
    /** Trino's errorName, e.g. ACCESS_DENIED, TABLE_NOT_FOUND, SYNTAX_ERROR */
    readonly errorName: string,
    /** USER_ERROR, INTERNAL_ERROR, INSUFFICIENT_RESOURCES, EXTERNAL */
    readonly errorType: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  timeoutMs?: number;
  /** stop reading (and cancel) after this many rows */
  maxRows?: number;
  signal?: AbortSignal;
}

export class TrinoLogin {
  private readonly trino: Trino;

  constructor(readonly options: TrinoLoginOptions) {
    this.trino = Trino.create({
      server: options.server,
      catalog: options.catalog,
      schema: options.schema,
      source: 'basin',
      // trino-client sends Basic credentials only with a password; without one the header carries the user
      auth: new BasicAuth(options.user, options.password),
      ...(options.ca ? { ssl: { ca: options.ca } } : {}),
    });
  }

  get user(): string {
    return this.options.user;
  }

  /** Runs one statement to completion. */
  async run(sql: string, opts: RunOptions = {}): Promise<TrinoResult> {
    // Trino enforces the time limit itself too (EXCEEDED_TIME_LIMIT), so a query never outlives it
    const session = opts.timeoutMs ? { query_max_run_time: `${Math.max(1, Math.ceil(opts.timeoutMs))}ms` } : undefined;
    const iter = await this.trino.query({ query: sql, ...(session ? { session } : {}) });
    const columns: TrinoResult['columns'] = [];
    const rows: unknown[][] = [];
    let queryId: string | undefined;
    let truncated = false;
    const deadline = opts.timeoutMs ? Date.now() + opts.timeoutMs : Infinity;
    for await (const page of iter as AsyncIterable<QueryResult>) {
      queryId = page.id;
      if (page.error) throw toError(page.error);
      if (page.columns && !columns.length) columns.push(...page.columns.map((c) => ({ name: c.name, type: c.type })));
      if (page.data) rows.push(...page.data);
      if (opts.maxRows !== undefined && rows.length > opts.maxRows) {
        truncated = true;
        rows.length = opts.maxRows;
        await this.cancel(queryId);
        break;
      }
      if (Date.now() > deadline || opts.signal?.aborted) {
        await this.cancel(queryId);
        throw new TrinoQueryError(`the query ran longer than ${opts.timeoutMs} ms and was cancelled`, 'EXCEEDED_TIME_LIMIT', 'INSUFFICIENT_RESOURCES');
      }
    }
    return { columns, rows, truncated };
  }

  /** Rows as objects keyed by column name. */
  async rows<T = Record<string, unknown>>(sql: string, opts?: RunOptions): Promise<T[]> {
    const r = await this.run(sql, opts);
    return r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c.name, row[i]])) as T);
  }

  private async cancel(queryId: string | undefined): Promise<void> {
    if (!queryId) return;
    try {
      await this.trino.cancel(queryId);
    } catch {
      // already finished
    }
  }
}

function toError(e: NonNullable<QueryResult['error']>): TrinoQueryError {
  return new TrinoQueryError(e.message, e.errorName, e.errorType);
}

/** Quotes an identifier for Trino SQL. */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** Quotes a string literal for Trino SQL. */
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;
