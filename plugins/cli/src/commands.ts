import path from 'node:path';
import { CliExit, closeWithDeadline, EXIT, formatIssue, validateProject, withExamples, type CliContext } from '@basin/core';
import { scaffoldProject } from './scaffold.js';

export function registerCommands(cli: CliContext): void {
  const { program } = cli;
  const out = (s: string) => cli.stdout.write(`${s}\n`);

  program
    .command('init')
    .argument('<dir>', 'directory for the new project')
    .option('--name <name>', 'project name (default: the directory name)')
    .option('--purpose <text>', 'what the project is for')
    .option('-y, --yes', 'do not ask questions; use defaults')
    .description('Create a new Basin project')
    .action((dir: string, o: { name?: string; purpose?: string }) => {
      try {
        const files = scaffoldProject(dir, { name: o.name, purpose: o.purpose });
        out(`Created Basin project in ${path.resolve(dir)} (${files.length} files).`);
        // the first hour: what to do after init, in the order a new user needs it
        const p = /^[\w./@:+-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`;
        out('');
        out('Next steps:');
        out(`  1. Add a source:        basin source add --project ${p}`);
        out(`  2. Check the config:    basin config validate --project ${p}`);
        out(`  3. Load the data:       basin sync --project ${p}`);
        out(`  4. Open the UI:         basin start --project ${p}   (then http://127.0.0.1:8800/)`);
        out('While the server runs, `basin sync` and `basin tx run` go through it; with authentication on they');
        out('need an API key: basin keys create --user EMAIL, then export BASIN_API_KEY=<the key>.');
      } catch (e) {
        throw new CliExit(EXIT.failure, `basin init: ${(e as Error).message}`);
      }
    });

  const start = program
    .command('start')
    .option('--project <dir>', 'project directory', process.cwd())
    .option('--port <port>', 'port (default: platform.port, 8800)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--log-level <level>', 'log level', 'info')
    .option('-d, --detach', 'run in the background (logs in .basin/logs/server.log; stop with "basin stop")')
    .option('--shutdown-timeout <seconds>', 'after SIGTERM/SIGINT, exit after at most this long even if requests or jobs are still running', '20')
    .description('Start the Basin server')
    .action(async (o: { project: string; port?: string; host: string; logLevel: string; shutdownTimeout: string; detach?: boolean }) => {
      if (o.detach) return (await import('./cli/server-process.js')).startDetached(cli, path.resolve(o.project), o);
      const started = Date.now();
      const app = await cli.boot({ projectDir: path.resolve(o.project), logger: { level: o.logLevel } });
      const port = o.port ? Number(o.port) : app.config.platform.port;
      let stopping = false;
      const deadline = Math.max(1, Number(o.shutdownTimeout) || 20);
      const stop = async (signal: string) => {
        if (stopping) process.exit(1); // a second signal: stop now
        stopping = true;
        out(`Received ${signal}; shutting down (at most ${deadline} s).`);
        const clean = await closeWithDeadline(app, deadline * 1000);
        if (!clean) cli.stderr.write(`basin: shutdown did not finish within ${deadline} s; exiting anyway.\n`);
        process.exit(clean ? 0 : 1);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
      try {
        await app.listen({ host: o.host, port });
      } catch (e) {
        await app.close();
        throw new CliExit(EXIT.failure, `basin start: ${(e as Error).message}`);
      }
      const host = o.host.includes(':') ? `[${o.host}]` : o.host;
      out(`Basin is running at http://${host}:${port}/ (started in ${Date.now() - started} ms; API docs at /api/docs)`);
      await new Promise(() => {}); // until a signal
    });

  withExamples(start, ['basin start', 'basin start --detach --project ~/acme', 'basin start --host 0.0.0.0 --port 9000']);

  const config = program.command('config').description('Inspect and validate configuration');
  program.commands.find((c) => c.name() === 'init')?.addHelpText('after', '\nExamples:\n  $ basin init acme\n  $ basin init ~/projects/acme --name acme --purpose "Sales analytics" --yes\n');
  config
    .command('validate')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Validate every configuration file; exit 0 when valid, 1 otherwise')
    .addHelpText('after', '\nExamples:\n  $ basin config validate\n  $ basin config validate --project ~/acme\n')
    .action(async (o: { project: string }) => {
      const issues = await validateProject(path.resolve(o.project));
      for (const i of issues) out(formatIssue(i));
      const errorsCount = issues.filter((i) => i.severity === 'error').length;
      if (errorsCount) throw new CliExit(EXIT.failure, `${errorsCount} error(s) found.`);
      out('Configuration is valid.');
    });
}
