import type { DuckDBInstance, DuckDBConnection } from '@duckdb/node-api';

/**
 * Validates a monitor's `value_expression` and `filter` with DuckDB's parser and returns the
 * canonical SQL text DuckDB prints back from the parse tree (json_serialize_sql →
 * json_deserialize_sql). Only that re-printed text is ever put into monitor SQL: comments are gone,
 * literals are re-quoted, and it is exactly one expression. Refused: anything that is not a single
 * plain expression (several statements, several select items, clauses such as ORDER BY/GROUP BY/
 * UNION), subqueries, table functions, window functions and functions that reach outside.
 */

export class ExpressionError extends Error {}

const DENIED_FUNCTIONS = new Set([
  'query', 'query_table', 'json_execute_serialized_sql', 'getenv', 'current_setting', 'glob',
  // a monitor runs on the warehouse in the server process: no list generators (len(range(1e9)) takes
  // gigabytes) and nothing that only waits (issue 12)
  'range', 'generate_series', 'sleep_ms', 'sleep',
  // on a server warehouse the expression runs as written: its engine's waits and settings neither
  'pg_sleep', 'pg_sleep_for', 'pg_sleep_until', 'set_config', 'dblink', 'lo_import', 'lo_export',
]);

interface SelectNode {
  type: string;
  modifiers: unknown[];
  cte_map: { map: unknown[] };
  select_list: unknown[];
  from_table: { type: string };
  where_clause: unknown;
  group_expressions: unknown[];
  group_sets: unknown[];
  having: unknown;
  sample: unknown;
  qualify: unknown;
}

export class ExpressionGuard {
  private conn: Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> | null = null;

  private connection(): Promise<DuckDBConnection> {
    if (!this.conn) {
      this.conn = (async () => {
        const { DuckDBInstance } = await import('@duckdb/node-api');
        const instance = await DuckDBInstance.create(':memory:', { enable_external_access: 'false', autoload_known_extensions: 'false', autoinstall_known_extensions: 'false' });
        return { instance, conn: await instance.connect() };
      })();
    }
    return this.conn.then((c) => c.conn);
  }

  /** `sum(amount)`, `count(*) FILTER (WHERE paid)`, ... → canonical text */
  async valueExpression(expr: string): Promise<string> {
    const node = await this.parseSelect(`SELECT ${expr}`, 'value_expression');
    if (node.select_list.length !== 1) throw new ExpressionError('must be exactly one expression (no commas at the top level)');
    if (node.where_clause) throw new ExpressionError('must be an expression, not a clause');
    return this.canonical(`SELECT ${expr}`, 'SELECT ');
  }

  /** `status = 'paid' AND amount > 0` → canonical text */
  async filter(expr: string): Promise<string> {
    const node = await this.parseSelect(`SELECT 1 WHERE ${expr}`, 'filter');
    const sel = node.select_list[0] as { class?: string; value?: { value?: unknown } } | undefined;
    if (node.select_list.length !== 1 || sel?.class !== 'CONSTANT' || sel.value?.value !== 1 || !node.where_clause) {
      throw new ExpressionError('must be one WHERE condition');
    }
    return this.canonical(`SELECT 1 WHERE ${expr}`, 'SELECT 1 WHERE ');
  }

  private async parseSelect(sql: string, what: string): Promise<SelectNode> {
    const c = await this.connection();
    let count: number;
    try {
      count = (await c.extractStatements(sql)).count;
    } catch (e) {
      throw new ExpressionError(`does not parse as a SQL ${what === 'filter' ? 'condition' : 'expression'}: ${(e as Error).message.replace(/^Failed to extract statements: /, '').split('\n')[0]}`);
    }
    if (count !== 1) throw new ExpressionError('must be one expression, not several statements');
    const r = await c.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR) AS j', [sql]);
    const parsed = JSON.parse(String(r.getRows()[0]![0])) as { error: boolean; error_message?: string; statements?: Array<{ node: SelectNode }> };
    if (parsed.error || parsed.statements?.length !== 1) throw new ExpressionError(`is not a plain expression${parsed.error_message ? `: ${parsed.error_message}` : ''}`);
    const node = parsed.statements[0]!.node;
    if (node.type !== 'SELECT_NODE') throw new ExpressionError('must not contain UNION/EXCEPT/INTERSECT');
    if (node.modifiers.length || node.cte_map.map.length || node.group_expressions.length || node.group_sets.length || node.having || node.sample || node.qualify) {
      throw new ExpressionError('must not contain ORDER BY, LIMIT, GROUP BY, HAVING, QUALIFY, WITH or SAMPLE');
    }
    if (node.from_table.type !== 'EMPTY') throw new ExpressionError('must not contain FROM');
    rejectInsideTree(node);
    return node;
  }

  private async canonical(sql: string, prefix: string): Promise<string> {
    const c = await this.connection();
    const r = await c.runAndReadAll('SELECT json_deserialize_sql(json_serialize_sql($1::VARCHAR)) AS s', [sql]);
    const text = String(r.getRows()[0]![0]);
    if (!text.startsWith(prefix)) throw new ExpressionError('could not be re-printed safely');
    return text.slice(prefix.length);
  }

  close(): void {
    void this.conn?.then(({ instance, conn }) => {
      conn.closeSync();
      instance.closeSync();
    });
    this.conn = null;
  }
}

function rejectInsideTree(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    if (Array.isArray(n)) {
      stack.push(...n);
      continue;
    }
    const o = n as Record<string, unknown>;
    if (o.class === 'SUBQUERY') throw new ExpressionError('must not contain subqueries');
    if (o.class === 'WINDOW') throw new ExpressionError('must not contain window functions (OVER)');
    if (o.type === 'TABLE_FUNCTION') throw new ExpressionError('must not contain table functions');
    if (o.class === 'FUNCTION' && typeof o.function_name === 'string') {
      const fn = o.function_name.toLowerCase();
      if (DENIED_FUNCTIONS.has(fn) || fn.startsWith('read_')) throw new ExpressionError(`must not call ${fn}()`);
    }
    for (const v of Object.values(o)) if (v && typeof v === 'object') stack.push(v);
  }
}
