// `basin schedule list|run|history|cancel|enable|disable`; implementations load when a command runs.
import path from 'node:path';
import { projectOption, withExamples, type CliContext } from '@basin/core';

const dir = (o: { project: string }) => path.resolve(o.project);

export function registerScheduleCommands(cli: CliContext): void {
  const schedule = cli.program.command('schedule').description('Cron schedules: list, run now, history, cancel, enable, disable');
  const load = () => import('./schedule.js');
  withExamples(projectOption(schedule.command('list')).option('--json', 'print JSON (as GET /api/schedules)').description('Every schedule with its cron, next run and last run'), [
    'basin schedule list',
    'basin schedule list --json',
  ]).action(async (o) => (await load()).list(cli, dir(o), o));
  withExamples(
    projectOption(schedule.command('run').argument('<name>', 'schedule name'))
      .option('--no-wait', 'return once the job is queued')
      .option('--json', 'print the job record as JSON')
      .description('Run a schedule now (through the running server when there is one) and wait for its job'),
    ['basin schedule run nightly', 'basin schedule run nightly --no-wait --json'],
  ).action(async (name: string, o) => (await load()).run(cli, dir(o), name, o));
  withExamples(
    projectOption(schedule.command('history').argument('[name]', 'only this schedule'))
      .option('-n, --limit <n>', 'how many jobs', '20')
      .option('--json', 'print JSON')
      .description('Recent jobs, newest first'),
    ['basin schedule history', 'basin schedule history nightly -n 5 --json'],
  ).action(async (name: string | undefined, o) => (await load()).history(cli, dir(o), name, o));
  withExamples(projectOption(schedule.command('cancel').argument('<job_id>', 'the job to cancel')).option('--json', 'print JSON').description('Cancel a running or queued job (needs the running server)'), [
    'basin schedule cancel 3f2c9a',
  ]).action(async (id: string, o) => (await load()).cancel(cli, dir(o), id, o));
  for (const on of [true, false]) {
    withExamples(
      projectOption(schedule.command(on ? 'enable' : 'disable').argument('<name>', 'schedule name')).description(`${on ? 'Enable' : 'Disable'} a schedule in schedules.yml (the running server reloads it)`),
      [`basin schedule ${on ? 'enable' : 'disable'} nightly`],
    ).action(async (name: string, o) => (await load()).setEnabled(cli, dir(o), name, on));
  }
}
