// `basin governance pii|overrides`: PII findings and the reviewed overrides, through the API.
import path from 'node:path';
import { addExamples, printResult, projectOption, withExamples, withProjectApi, type CliContext } from '@basin/core';

export function registerGovernanceCommands(cli: CliContext): void {
  addExamples(cli.program, { 'drift report': ['basin drift report', 'basin drift report --source crm --json'], 'drift accept': ['basin drift accept crm'] });
  const gov = cli.program.command('governance').description('Governance: PII findings and overrides (see also "basin drift")');
  withExamples(
    projectOption(gov.command('pii'))
      .option('--source <name>', 'only this source')
      .option('--table <name>', 'only this table')
      .option('--include-dismissed', 'also findings overridden as not PII')
      .option('--json', 'print JSON (as GET /api/governance/pii)')
      .description('PII findings per column, masked examples only, overrides applied'),
    ['basin governance pii', 'basin governance pii --source crm --json'],
  ).action(async (o: { project: string; source?: string; table?: string; includeDismissed?: boolean; json?: boolean }) => {
    const q = new URLSearchParams();
    if (o.source) q.set('source', o.source);
    if (o.table) q.set('table', o.table);
    if (o.includeDismissed) q.set('include_dismissed', 'true');
    const d = await withProjectApi(cli, path.resolve(o.project), { command: 'basin governance pii' }, (api) => api.request('GET', `/api/governance/pii${q.size ? `?${q}` : ''}`));
    printResult(cli, d, { json: o.json, columns: ['source', 'table', 'column', 'entity_type', 'confidence', 'status'], empty: 'No PII found.' });
  });
  withExamples(projectOption(gov.command('overrides')).option('--json', 'print JSON (as GET /api/governance/pii/overrides)').description('Reviewed PII decisions from pii-overrides.yml'), [
    'basin governance overrides',
  ]).action(async (o: { project: string; json?: boolean }) => {
    const d = await withProjectApi(cli, path.resolve(o.project), { command: 'basin governance overrides' }, (api) => api.request('GET', '/api/governance/pii/overrides'));
    printResult(cli, d, { json: o.json, columns: ['source', 'table', 'column', 'status', 'set_by', 'reason', 'updated_at'], empty: 'No PII overrides.' });
  });
}
