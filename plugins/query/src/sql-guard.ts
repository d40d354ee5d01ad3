import type { DuckDBConnection } from '@duckdb/node-api';
import { statementKind } from './statement-kind.js';
import { queryErrors } from './errors.js';

/**
 * Decides whether a SQL text may run on the query endpoint. DuckDB's own parser is the judge:
 * exactly one statement (extractStatements), which json_serialize_sql can serialize (it serializes
 * SELECT statements only: plain selects, CTEs, set operations, VALUES, DESCRIBE/SHOW/SUMMARIZE), and
 * whose parse tree names no table function outside an allow-list, no denied scalar function and no
 * replacement scan of a file path. This is defense in depth: the query runs on a read-only instance
 * with external access disabled anyway.
 */

/** Table functions a SELECT may use; everything else (read_csv, glob, query, ...) is refused. */
export const ALLOWED_TABLE_FUNCTIONS = new Set([
  'range', 'generate_series', 'unnest', 'json_each', 'json_tree',
  'duckdb_tables', 'duckdb_columns', 'duckdb_views', 'duckdb_schemas', 'duckdb_types', 'duckdb_constraints',
  'duckdb_indexes', 'duckdb_keywords', 'duckdb_functions', 'pragma_table_info',
]);

/** Scalar functions refused anywhere: they run SQL from a string, read the environment or files. */
const DENIED_FUNCTIONS = new Set(['query', 'query_table', 'json_execute_serialized_sql', 'getenv', 'current_setting', 'read_text', 'read_blob']);

/** A table name that DuckDB would treat as a file to scan (`FROM '/etc/passwd'`, `FROM 'x.csv'`). */
const FILE_LIKE = /[/\\:*?~]|\.[A-Za-z0-9]{1,10}$/;

const notAllowed = (message: string, details: Record<string, unknown>) => queryErrors.query_not_allowed({ reason: message }, { details });
export const invalidSql = (message: string) => queryErrors.invalid_sql({ reason: message });

interface SerializedSql {
  error: boolean;
  error_type?: string;
  error_message?: string;
  statements?: unknown[];
}

export async function guardSelect(conn: DuckDBConnection, sql: string): Promise<void> {
  if (!sql.trim()) throw invalidSql('the statement is empty.');
  let count: number;
  try {
    count = (await conn.extractStatements(sql)).count;
  } catch (e) {
    const message = (e as Error).message;
    // IMPORT DATABASE and the like read files while being extracted; external access off refuses that
    const kind = statementKind(sql);
    if (kind === 'UNKNOWN') throw invalidSql('the SQL contains no statement.');
    if (!/Parser Error/i.test(message)) {
      throw notAllowed(`Only SELECT statements may run here; this is a ${kind} statement.`, { statement: kind });
    }
    throw invalidSql(cleanParserMessage(message));
  }
  if (count === 0) throw invalidSql('the SQL contains no statement.');
  if (count !== 1) {
    throw notAllowed(`Exactly one statement is allowed; this SQL has ${count}.`, { statement_count: count });
  }
  const reader = await conn.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR) AS j', [sql]);
  const parsed = JSON.parse(String(reader.getRows()[0]![0])) as SerializedSql;
  if (parsed.error) {
    if (parsed.error_type === 'parser') throw invalidSql(parsed.error_message ?? 'syntax error');
    const kind = statementKind(sql);
    throw notAllowed(`Only SELECT statements may run here; this is a ${kind} statement.`, { statement: kind });
  }
  if (!parsed.statements || parsed.statements.length !== 1) {
    throw notAllowed('Exactly one statement is allowed.', { statement_count: parsed.statements?.length ?? 0 });
  }
  walkTree(parsed.statements[0]);
}

/** Iterative walk (the tree may be deep) over every object of the serialized statement. */
export function walkTree(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const c of node) if (c && typeof c === 'object') stack.push(c);
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    const o = node as Record<string, unknown>;
    if (o.type === 'TABLE_FUNCTION' && o.function && typeof o.function === 'object') {
      const fn = String((o.function as Record<string, unknown>).function_name ?? '').toLowerCase();
      if (!ALLOWED_TABLE_FUNCTIONS.has(fn)) {
        throw notAllowed(`The table function ${fn}() is not allowed in queries (file and external readers are refused).`, { function: fn });
      }
    }
    if (o.class === 'FUNCTION' && typeof o.function_name === 'string') {
      const fn = o.function_name.toLowerCase();
      if (DENIED_FUNCTIONS.has(fn) || fn.startsWith('read_')) throw notAllowed(`The function ${fn}() is not allowed in queries.`, { function: fn });
    }
    if (o.type === 'BASE_TABLE' && typeof o.table_name === 'string' && FILE_LIKE.test(o.table_name)) {
      throw notAllowed(`"${o.table_name}" looks like a file path; reading files is not allowed in queries.`, { table: o.table_name });
    }
    for (const v of Object.values(o)) if (v && typeof v === 'object') stack.push(v);
  }
}

/** DuckDB prefixes extractStatements errors; keep the parser's own sentence and caret line. */
function cleanParserMessage(m: string): string {
  return m.replace(/^Failed to extract statements: /, '').replace(/^Parser Error: /, '').trim();
}
