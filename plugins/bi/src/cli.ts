import path from 'node:path';
import { CliExit, companionVenvOf, EXIT, loadProjectConfig, VenvSetupError, withExamples, type CliContext } from '@basin/core';
import { supersetVenvFor } from './venv.js';

/**
 * `basin bi setup`: Superset's virtualenv (`basin start` also creates it in the background), with the
 * SQLAlchemy driver of the project's warehouse when it is a server (PostgreSQL, Trino).
 */
export function registerBiCommands(cli: CliContext): void {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const bi = cli.program.command('bi').description('Dashboards (Apache Superset)');
  withExamples(bi.command('setup'), ['basin bi setup --project ~/acme'])
    .option('--project <dir>', 'project directory', process.cwd())
    .description("Create or update the Python virtualenv with the pinned Superset and the warehouse's driver (idempotent; about a minute the first time)")
    .action(async (o: { project: string }) => {
      const projectDir = path.resolve(o.project);
      const { config } = await loadProjectConfig(projectDir);
      const { venv, warehouse, drivers } = await companionVenvOf(config, supersetVenvFor);
      const { dir, kind } = venv.locate(projectDir);
      try {
        const { changed } = await venv.ensure(dir, (l) => out(`  ${l}`));
        const extra = drivers.length ? ` with the ${warehouse} driver ${drivers.join(', ')}` : '';
        out(`Superset virtualenv ${changed ? 'installed' : 'already up to date'}${extra} (${kind}): ${dir}`);
      } catch (e) {
        if (e instanceof VenvSetupError) throw new CliExit(EXIT.failure, `basin bi setup: ${e.message}`);
        throw e;
      }
    });
}
