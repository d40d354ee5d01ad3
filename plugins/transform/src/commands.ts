import path from 'node:path';
import { CliExit, EXIT, runningServer, type CliContext } from '@basin/core';
import { runThroughServer } from './cli-remote.js';
import { FAILED_STATUSES, isProgressLine } from './dbt-log.js';
import { txInternal } from './internal-services.js';
import type { TxCommand, TxRunRecord } from './types.js';
import { dbtVersion, ensureVenv, locateVenv, VenvSetupError } from './venv.js';

/** `basin tx setup | run | test | docs`, streaming dbt's progress lines. */
export function registerTxCommands(cli: CliContext): void {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const tx = cli.program.command('tx').description('Transformations with dbt');

  tx.command('setup')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Create or update the Python virtualenv with the pinned dbt (idempotent)')
    .action(async (o: { project: string }) => {
      const { dir, kind } = locateVenv(path.resolve(o.project));
      try {
        const { changed } = await ensureVenv(dir, (l) => out(`  ${l}`));
        out(`dbt virtualenv ${changed ? 'installed' : 'already up to date'} (${kind}): ${dir}`);
        out(dbtVersion(dir) ?? 'dbt version unknown');
      } catch (e) {
        if (e instanceof VenvSetupError) throw new CliExit(EXIT.failure, `basin tx setup: ${e.message}`);
        throw e;
      }
    });

  const runInProcess = async (projectDir: string, command: TxCommand, selector: string | undefined, fullRefresh: boolean): Promise<TxRunRecord> => {
    const app = await cli.boot({ projectDir });
    try {
      const runner = app.resolve(txInternal.runner);
      const stop = runner.onLine((l) => {
        if (isProgressLine(l)) out(l.msg);
      });
      try {
        return await runner.run({ command, select: selector, trigger: 'cli', args: fullRefresh ? ['--full-refresh'] : [] });
      } finally {
        stop();
      }
    } finally {
      await app.close();
    }
  };

  const runCommand = (command: TxCommand) => async (selector: string | undefined, o: { project: string; fullRefresh?: boolean }) => {
    const projectDir = path.resolve(o.project);
    const server = runningServer(projectDir);
    const rec = server
      ? await runThroughServer(server, { command, select: selector, fullRefresh: !!o.fullRefresh }, out)
      : await runInProcess(projectDir, command, selector, !!o.fullRefresh);
    // each failed model with its file and line (the progress lines show only dbt's summary)
    for (const m of rec.models.filter((x) => FAILED_STATUSES.has(x.status) && x.error)) {
      out(`\n${m.name}: ${m.error!.split('\n').slice(0, m.file ? 2 : 4).join('\n')}`);
    }
    out(`Run ${rec.id}: ${rec.status}${rec.error ? ` (${rec.error})` : ''}`);
    if (rec.status !== 'succeeded') throw new CliExit(EXIT.failure);
  };

  tx.command('run')
    .argument('[selector]', 'dbt selector, e.g. "stg_shop__orders+" (default: every model)')
    .option('--project <dir>', 'project directory', process.cwd())
    .option('--full-refresh', 'rebuild incremental models from scratch')
    .description('Run dbt models (through the running server when there is one, the single writer; else here)')
    .action(runCommand('run'));

  tx.command('test')
    .argument('[selector]', 'dbt selector (default: every test)')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Run dbt tests')
    .action(runCommand('test'));

  tx.command('build')
    .argument('[selector]', 'dbt selector, e.g. "+fct_orders" (default: everything)')
    .option('--project <dir>', 'project directory', process.cwd())
    .option('--full-refresh', 'rebuild incremental models from scratch')
    .description('Run and test models in dependency order (dbt build)')
    .action(runCommand('build'));

  tx.command('seed')
    .argument('[selector]', 'dbt selector (default: every seed)')
    .option('--project <dir>', 'project directory', process.cwd())
    .option('--full-refresh', 'drop and recreate the seed tables')
    .description('Load the CSV seeds of tx/seeds into the warehouse (dbt seed, through the single writer)')
    .action(runCommand('seed'));

  tx.command('snapshot')
    .argument('[selector]', 'dbt selector (default: every snapshot)')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Record slowly changing dimensions (dbt snapshot, through the single writer)')
    .action(runCommand('snapshot'));

  tx.command('docs')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Generate the dbt docs site (served by `basin start` at /tx-docs/)')
    .action(async (o: { project: string }) => {
      const app = await cli.boot({ projectDir: path.resolve(o.project) });
      let ok: boolean;
      let dir: string;
      try {
        const runner = app.resolve(txInternal.runner);
        ok = await runner.generateDocs();
        dir = runner.targetDir;
      } finally {
        await app.close();
      }
      if (!ok) throw new CliExit(EXIT.failure, 'basin tx docs: dbt docs generate failed (see tx/logs/dbt.log)');
      out(`Docs generated in ${path.join(dir, 'index.html')}; \`basin start\` serves them at /tx-docs/`);
    });
}
