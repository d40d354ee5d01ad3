// The platform commands of the cli plugin. Each action imports its implementation when it runs, so
// `basin --help` loads none of them.
import path from 'node:path';
import { projectOption, withExamples, type CliContext } from '@basin/core';

const dir = (o: { project: string }) => path.resolve(o.project);

export function registerPlatformCommands(cli: CliContext): void {
  const { program } = cli;

  withExamples(projectOption(program.command('status')).option('--json', 'print JSON').description('Platform health, every source with its last sync, and what needs attention'), [
    'basin status',
    'basin status --json | jq ".sources[] | select(.status == \\"failed\\")"',
  ]).action(async (o) => (await import('./status.js')).runStatus(cli, dir(o), o));

  withExamples(
    projectOption(program.command('stop'))
      .option('--timeout <seconds>', 'how long to wait for a clean shutdown', '60')
      .option('--json', 'print JSON')
      .description('Stop the Basin server running for the project (started by "basin start --detach" or in another terminal)'),
    ['basin stop', 'basin stop --project ~/acme --timeout 120'],
  ).action(async (o) => (await import('./server-process.js')).stopServer(cli, dir(o), o));

  withExamples(
    projectOption(program.command('logs'))
      .option('--source <name>', 'only this source')
      .option('-n, --limit <n>', 'how many recent lines', '100')
      .option('-f, --follow', 'keep printing new lines (needs a running server)')
      .option('--interval <seconds>', 'poll interval with --follow', '1')
      .option('--json', 'print JSON (one object per line with --follow)')
      // for tests: stop following after n polls
      .addOption(program.createOption('--max-polls <n>').hideHelp().argParser(Number))
      .description('Sync log lines of every source (or one), oldest first'),
    ['basin logs', 'basin logs --source shop -n 20', 'basin logs --follow'],
  ).action(async (o) => (await import('./logs.js')).runLogs(cli, dir(o), o));

  withExamples(projectOption(program.command('info')).option('--json', 'print JSON').description('Versions, plugins, paths and sizes of this install and project'), ['basin info', 'basin info --json']).action(
    async (o) => (await import('./info.js')).runInfo(cli, dir(o), o),
  );

  withExamples(
    projectOption(program.command('doctor'))
      .option('--json', 'print JSON')
      .description('Check the environment, configuration, virtualenvs, source credentials, disk and ports; print a fix for each problem (exit 1 when any check fails)'),
    ['basin doctor', 'basin doctor --json | jq ".checks[] | select(.status != \\"ok\\")"'],
  ).action(async (o) => (await import('./doctor.js')).runDoctor(cli, dir(o), o));

  withExamples(
    projectOption(program.command('cleanup'))
      .option('--older-than <days>', 'remove log files older than this', '14')
      .option('--dry-run', 'only list what would be removed')
      .option('--json', 'print JSON')
      .description('Remove old log files, dbt run artifacts and leftover temp files (never data or config)'),
    ['basin cleanup --dry-run', 'basin cleanup --older-than 7'],
  ).action(async (o) => (await import('./cleanup.js')).runCleanup(cli, dir(o), o));

  withExamples(program.command('completion').argument('<shell>', 'bash, zsh or fish').description('Print a shell completion script'), [
    'eval "$(basin completion bash)"',
    'basin completion zsh > "${fpath[1]}/_basin"',
    'basin completion fish > ~/.config/fish/completions/basin.fish',
  ]).action(async (shell: string) => void cli.stdout.write((await import('./completion.js')).completionScript(program, shell)));

  withExamples(
    projectOption(program.command('login'))
      .option('--url <url>', "the server's URL (default: the server running for the project)")
      .option('--key <key>', 'an API key to store (prefer --key-stdin: arguments show in ps)')
      .option('--key-stdin', 'read the API key from stdin')
      .option('--email <email>', 'log in with e-mail and password and create an API key for this host')
      .option('--password-stdin', 'read the password from stdin (else BASIN_PASSWORD)')
      .description('Store an API key for a server so commands work without BASIN_API_KEY'),
    ['echo "$KEY" | basin login --key-stdin', 'basin login --url https://basin.example.com --email me@example.com --password-stdin < pw.txt'],
  ).action(async (o) => (await import('./login.js')).runLogin(cli, dir(o), o));

  withExamples(projectOption(program.command('logout')).option('--url <url>', "the server's URL").description('Forget the stored API key of a server'), ['basin logout']).action(async (o) =>
    (await import('./login.js')).runLogout(cli, dir(o), o),
  );
}
