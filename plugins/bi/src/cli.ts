import path from 'node:path';
import { CliExit, EXIT, VenvSetupError, withExamples, type CliContext } from '@basin/core';
import { supersetVenv } from './venv.js';

/** `basin bi setup`: Superset's virtualenv (`basin start` also creates it in the background). */
export function registerBiCommands(cli: CliContext): void {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const bi = cli.program.command('bi').description('Dashboards (Apache Superset)');
  withExamples(bi.command('setup'), ['basin bi setup --project ~/acme'])
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Create or update the Python virtualenv with the pinned Superset (idempotent; about a minute the first time)')
    .action(async (o: { project: string }) => {
      const { dir, kind } = supersetVenv.locate(path.resolve(o.project));
      try {
        const { changed } = await supersetVenv.ensure(dir, (l) => out(`  ${l}`));
        out(`Superset virtualenv ${changed ? 'installed' : 'already up to date'} (${kind}): ${dir}`);
      } catch (e) {
        if (e instanceof VenvSetupError) throw new CliExit(EXIT.failure, `basin bi setup: ${e.message}`);
        throw e;
      }
    });
}
