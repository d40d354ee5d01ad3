import path from 'node:path';
import { CliExit, EXIT, VenvSetupError, withExamples, type CliContext } from '@basin/core';
import { marimoVenv } from './venv.js';

/** `basin notebooks setup`: the marimo virtualenv (the server also creates it on first use). */
export function registerNotebookCommands(cli: CliContext): void {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const nb = cli.program.command('notebooks').description('marimo notebooks');
  withExamples(nb.command('setup'), ['basin notebooks setup --project ~/acme'])
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Create or update the Python virtualenv with the pinned marimo (idempotent)')
    .action(async (o: { project: string }) => {
      const { dir, kind } = marimoVenv.locate(path.resolve(o.project));
      try {
        const { changed } = await marimoVenv.ensure(dir, (l) => out(`  ${l}`));
        out(`marimo virtualenv ${changed ? 'installed' : 'already up to date'} (${kind}): ${dir}`);
      } catch (e) {
        if (e instanceof VenvSetupError) throw new CliExit(EXIT.failure, `basin notebooks setup: ${e.message}`);
        throw e;
      }
    });
}
