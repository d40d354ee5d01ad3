// `basin monitor list|run`: metric monitors through the API (the running server, or the project opened here).
import path from 'node:path';
import { CliExit, EXIT, printResult, projectOption, withExamples, withProjectApi, type CliContext } from '@basin/core';

const rows = (d: any) =>
  (d.monitors ?? []).map((m: any) => ({ name: m.name, source_table: m.source_table, compare: m.compare, status: m.latest?.status ?? 'not run', change: pct(m.latest?.change_pct), at: m.latest?.computed_at ?? '' }));
const pct = (v: number | null | undefined) => (typeof v === 'number' ? `${v > 0 ? '+' : ''}${v.toFixed(1)}%` : '');

export function registerMonitorCommands(cli: CliContext): void {
  const monitor = cli.program.command('monitor').description('Metric monitors (monitors.yml): latest results and runs');
  withExamples(projectOption(monitor.command('list')).option('--json', 'print JSON (as GET /api/monitoring)').description('Every monitor with its latest result'), ['basin monitor list', 'basin monitor list --json']).action(
    async (o: { project: string; json?: boolean }) => {
      const d = await withProjectApi(cli, path.resolve(o.project), { command: 'basin monitor list' }, (api) => api.request('GET', '/api/monitoring'));
      printResult(cli, d, { json: o.json, rows, columns: ['name', 'source_table', 'compare', 'status', 'change', 'at'], empty: 'No monitors (add them to .basin/monitors.yml).' });
    },
  );
  withExamples(
    projectOption(monitor.command('run'))
      .option('--source <name>', 'only monitors on this source')
      .option('--json', 'print JSON (as POST /api/monitoring/run)')
      .description('Run the metric monitors now; exit 1 when one alerts'),
    ['basin monitor run', 'basin monitor run --source shop --json'],
  ).action(async (o: { project: string; source?: string; json?: boolean }) => {
    const d = await withProjectApi(cli, path.resolve(o.project), { command: 'basin monitor run' }, (api) =>
      api.request<any>('POST', `/api/monitoring/run${o.source ? `?source=${encodeURIComponent(o.source)}` : ''}`),
    );
    const results: any[] = d.results ?? d.monitors ?? [];
    printResult(cli, d, {
      json: o.json,
      rows: () => results.map((r) => ({ ...r, name: r.monitor, change: pct(r.change_pct), message: r.error ?? '' })),
      columns: ['name', 'status', 'period', 'value', 'baseline', 'change', 'message'],
      empty: 'No monitors ran.',
    });
    if (results.some((r) => r.status === 'alert' || r.status === 'error')) throw new CliExit(EXIT.failure);
  });
}
