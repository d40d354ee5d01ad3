import path from 'node:path';
import { CliExit, EXIT, type CliContext } from '@basin/core';
import { isProgressLine } from './dbt-log.js';
import type { DbtRunner } from './runner.js';
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

  const runCommand = (command: TxCommand) => async (selector: string | undefined, o: { project: string; fullRefresh?: boolean }) => {
    const app = await cli.boot({ projectDir: path.resolve(o.project) });
    let rec: TxRunRecord;
    try {
      const runner = app.container.resolve<DbtRunner>('txRunner');
      const stop = runner.onLine((l) => {
        if (isProgressLine(l)) out(l.msg);
      });
      try {
        rec = await runner.run({ command, select: selector, trigger: 'cli', args: o.fullRefresh ? ['--full-refresh'] : [] });
      } finally {
        stop();
      }
    } finally {
      await app.close();
    }
    out(`Run ${rec.id}: ${rec.status}${rec.error ? ` (${rec.error})` : ''}`);
    if (rec.status !== 'succeeded') throw new CliExit(EXIT.failure);
  };

  tx.command('run')
    .argument('[selector]', 'dbt selector, e.g. "stg_shop__orders+" (default: every model)')
    .option('--project <dir>', 'project directory', process.cwd())
    .option('--full-refresh', 'rebuild incremental models from scratch')
    .description('Run dbt models (the warehouse is handed to dbt, then the serving copy is published)')
    .action(runCommand('run'));

  tx.command('test')
    .argument('[selector]', 'dbt selector (default: every test)')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Run dbt tests')
    .action(runCommand('test'));

  tx.command('docs')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Generate the dbt docs site (served by `basin start` at /tx-docs/)')
    .action(async (o: { project: string }) => {
      const app = await cli.boot({ projectDir: path.resolve(o.project) });
      let ok: boolean;
      let dir: string;
      try {
        const runner = app.container.resolve<DbtRunner>('txRunner');
        ok = await runner.generateDocs();
        dir = runner.targetDir;
      } finally {
        await app.close();
      }
      if (!ok) throw new CliExit(EXIT.failure, 'basin tx docs: dbt docs generate failed (see tx/logs/dbt.log)');
      out(`Docs generated in ${path.join(dir, 'index.html')}; \`basin start\` serves them at /tx-docs/`);
    });
}
