// `basin query "SELECT ..."`: the read-only query endpoint (same guard and row cap) as a table, JSON or CSV.
import path from 'node:path';
import { CliExit, EXIT, painter, printResult, projectOption, toCsv, withExamples, withProjectApi, type CliContext } from '@basin/core';

interface QueryResult {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
}

export function registerQueryCommand(cli: CliContext): void {
  withExamples(
    projectOption(cli.program.command('query').argument('<sql>', 'one SELECT statement'))
      .option('--json', 'print JSON (as POST /api/query)')
      .option('--csv', 'print CSV (RFC 4180, header row)')
      .description('Run one read-only SELECT on the warehouse (the same guard and row cap as POST /api/query)'),
    ['basin query "SELECT count(*) FROM raw_shop.orders"', 'basin query "SELECT * FROM main.fct_orders" --csv > orders.csv', 'basin query "SELECT 1 AS x" --json'],
  ).action(async (sql: string, o: { project: string; json?: boolean; csv?: boolean }) => {
    if (o.json && o.csv) throw new CliExit(EXIT.config, 'basin query: choose one of --json and --csv.');
    const r = await withProjectApi(cli, path.resolve(o.project), { command: 'basin query' }, (api) => api.request<QueryResult>('POST', '/api/query', { sql }));
    const names = r.columns.map((c) => c.name);
    if (o.csv) return void cli.stdout.write(toCsv(names, r.rows));
    const rows = r.rows.map((row) => Object.fromEntries(names.map((n, i) => [`c${i}`, row[i]])));
    printResult(cli, r, {
      json: o.json,
      rows: () => rows,
      columns: names.map((n, i) => ({ key: `c${i}`, title: n })),
      empty: '(no rows)',
      footer: () => `${r.row_count} row(s)${r.truncated ? painter(cli.stdout).yellow(' (truncated at the row cap)') : ''}`,
    });
  });
}
