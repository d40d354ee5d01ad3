// `basin model new|list|run` and `basin tx dev`; implementations load when a command runs.
import path from 'node:path';
import { addExamples, projectOption, withExamples, type CliContext } from '@basin/core';

const dir = (o: { project: string }) => path.resolve(o.project);

export function registerTxExtraCommands(cli: CliContext): void {
  const model = cli.program.command('model').description('dbt models: create from a template, list, run');
  const load = () => import('./model.js');
  withExamples(
    projectOption(model.command('new').argument('<name>', 'model name (letters, digits, underscores)'))
      .option('--layer <layer>', 'staging, intermediate or marts', 'marts')
      .option('--from <relation>', 'what it selects from: a model name, or source.table for a raw table')
      .option('--materialized <kind>', 'view or table (default: the layer\'s setting)')
      .option('--description <text>', 'what the model is for')
      .option('--json', 'print JSON')
      .description('Create a model from a template: tx/models/<layer>/<name>.sql and its schema .yml (never overwrites)'),
    ['basin model new fct_revenue --from int_orders', 'basin model new stg_shop__refunds --layer staging --from shop.refunds'],
  ).action(async (name: string, o) => (await load()).newModel(cli, dir(o), name, o));
  withExamples(projectOption(model.command('list')).option('--json', 'print JSON (as GET /api/tx/models)').description('Every model with its layer, materialization and last run'), [
    'basin model list',
    'basin model list --json',
  ]).action(async (o) => (await load()).listModels(cli, dir(o), o));
  withExamples(
    projectOption(model.command('run').argument('<name>', 'model name'))
      .option('--downstream', 'also everything downstream (dbt "name+")')
      .option('--full-refresh', 'rebuild incremental models from scratch')
      .option('--json', 'print the run record as JSON')
      .description('Run one model (through the running server when there is one, the single writer)'),
    ['basin model run fct_orders', 'basin model run stg_shop__orders --downstream'],
  ).action(async (name: string, o) => (await load()).runModel(cli, dir(o), name, o));

  const tx = cli.program.commands.find((c) => c.name() === 'tx') ?? cli.program.command('tx').description('Transformations with dbt');
  addExamples(cli.program, {
    'tx setup': ['basin tx setup'],
    'tx run': ['basin tx run', 'basin tx run "stg_shop__orders+"', 'basin tx run fct_orders --full-refresh'],
    'tx test': ['basin tx test', 'basin tx test fct_orders'],
    'tx build': ['basin tx build', 'basin tx build "+fct_orders"'],
    'tx seed': ['basin tx seed', 'basin tx seed regions --full-refresh'],
    'tx snapshot': ['basin tx snapshot'],
    'tx docs': ['basin tx docs'],
  });
  withExamples(
    projectOption(tx.command('dev').argument('[dbt...]', 'dbt command and arguments (default: build)'))
      .option('--fresh', 'take a new copy of the warehouse first')
      .allowUnknownOption()
      .description('Run dbt against a private copy of the warehouse (data/dev/), never production'),
    ['basin tx dev', 'basin tx dev run --select fct_orders', 'basin tx dev --fresh build', 'basin tx dev show --inline "select 1"'],
  ).action(async (args: string[], o) => (await import('./dev.js')).runDev(cli, dir(o), args, o));
}
