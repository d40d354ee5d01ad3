import path from 'node:path';
import { CliExit, EXIT, requireProjectConfig, openSqlite, type CliContext } from '@basin/core';
import { DeployTokens } from './deploy-token.js';

/** `basin initial-sync token`: a one-time deploy token for a fresh server (basin deploy issues one itself). */
export function registerInitialSyncCommands(cli: CliContext): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const cmd = cli.program.command('initial-sync').description('The first sync of a deployed server');
  cmd
    .command('token')
    .option('--ttl-hours <n>', 'hours the token stays valid', '24')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Issue the one-time deploy token (printed once; it starts the initial sync once, and reads its status until it expires)')
    .action(async (o: { ttlHours: string; project: string }) => {
      const ttl = Number(o.ttlHours);
      if (!Number.isFinite(ttl) || ttl <= 0 || ttl > 24 * 30) throw new CliExit(EXIT.failure, 'basin initial-sync token: --ttl-hours must be a number of hours between 0 and 720.');
      // state.db only (no warehouse), so this works beside a running server too
      const config = await requireProjectConfig(path.resolve(o.project));
      const db = openSqlite(config.resolve('.basin', 'state.db'));
      try {
        const t = new DeployTokens(db, () => new Date()).issue(ttl);
        out(`Deploy token (shown once; valid until ${t.expires_at}):`);
        out(t.token);
        out('Start the initial sync with: curl -X POST -H "X-Basin-Deploy-Token: <token>" <server>/api/initial-sync/start');
      } finally {
        db.close();
      }
    });
}
