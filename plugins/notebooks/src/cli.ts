import path from 'node:path';
import { CliExit, companionVenvOf, EXIT, loadProjectConfig, VenvSetupError, withExamples, type CliContext } from '@basin/core';
import { marimoVenvFor } from './venv.js';

/**
 * `basin notebooks setup`: the marimo virtualenv (the server also creates it on first use), with
 * SQLAlchemy and the project's warehouse driver when it is a server (PostgreSQL, Trino).
 */
export function registerNotebookCommands(cli: CliContext): void {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const nb = cli.program.command('notebooks').description('marimo notebooks');
  withExamples(nb.command('setup'), ['basin notebooks setup --project ~/acme'])
    .option('--project <dir>', 'project directory', process.cwd())
    .description("Create or update the Python virtualenv with the pinned marimo and the warehouse's driver (idempotent)")
    .action(async (o: { project: string }) => {
      const projectDir = path.resolve(o.project);
      const { config } = await loadProjectConfig(projectDir);
      const { venv, warehouse, drivers } = await companionVenvOf(config, marimoVenvFor);
      const { dir, kind } = venv.locate(projectDir);
      try {
        const { changed } = await venv.ensure(dir, (l) => out(`  ${l}`));
        const extra = drivers.length ? ` with the ${warehouse} driver ${drivers.join(', ')}` : '';
        out(`marimo virtualenv ${changed ? 'installed' : 'already up to date'}${extra} (${kind}): ${dir}`);
      } catch (e) {
        if (e instanceof VenvSetupError) throw new CliExit(EXIT.failure, `basin notebooks setup: ${e.message}`);
        throw e;
      }
    });
}
