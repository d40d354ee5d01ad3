import path from 'node:path';
import { acquireProjectLock, callServer, CliExit, ConfigLoadError, EXIT, requireProjectConfig, runningServer, type CliContext } from '@basin/core';
import { migrateWarehouse, MigrationError } from './migrate.js';
import { warehouseStatus } from './status.js';
import { registerWarehouseUpCommand } from './up-command.js';

const projectOpt = ['--project <dir>', 'project directory', process.cwd()] as const;

/** `--set key=value` pairs as a settings object (numbers and booleans as such) */
function settingsOf(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw new CliExit(EXIT.failure, `basin warehouse: --set takes key=value, got "${p}".`);
    const [k, v] = [p.slice(0, i), p.slice(i + 1)];
    out[k] = /^\d+$/.test(v) ? Number(v) : v === 'true' ? true : v === 'false' ? false : v;
  }
  return out;
}

/** `basin warehouse status` and `basin warehouse migrate --to <type>` */
export function registerWarehouseCommands(cli: CliContext): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const wh = cli.program.command('warehouse').description("The project's warehouse backend: its health, and moving a DuckDB warehouse to a server engine");
  registerWarehouseUpCommand(wh, out);

  wh.command('status')
    .description('Show the warehouse backend (warehouse.type in project.yml) and whether it answers')
    .option('--json', 'machine-readable output')
    .option(...projectOpt)
    .addHelpText('after', '\nExamples:\n  $ basin warehouse status\n  $ basin warehouse status --json\n')
    .action(async (o: { json?: boolean; project: string }) => {
      const dir = path.resolve(o.project);
      const server = runningServer(dir);
      let status: Record<string, unknown>;
      if (server) {
        // the server holds the DuckDB file: ask it
        const r = await callServer(server, 'GET', '/api/health/platform');
        if (!r.ok) throw new CliExit(EXIT.failure, `basin warehouse status: the running server answered HTTP ${r.status}.`);
        status = { ...(r.body?.warehouse ?? {}), via: `server pid ${server.pid}` };
      } else {
        status = { ...(await warehouseStatus(await requireProjectConfig(dir))) };
      }
      if (o.json) return out(JSON.stringify(status, null, 2));
      const ok = status.ok ?? status.status === 'ok';
      out(`Warehouse: ${status.type}${status.location ? ` at ${status.location}` : ''}`);
      out(`Health:    ${ok ? 'ok' : 'NOT OK'}${status.version ? ` (${status.version})` : ''}${status.latencyMs !== undefined ? `, ${status.latencyMs} ms` : status.latency_ms !== undefined ? `, ${status.latency_ms} ms` : ''}`);
      if (status.tables !== undefined && status.tables !== null) out(`Tables:    ${status.tables}`);
      if (!ok) {
        if (status.message) out(`Problem:   ${status.message}`);
        throw new CliExit(EXIT.failure, '');
      }
    });

  wh.command('migrate')
    .description('Copy the DuckDB warehouse (raw tables, commit markers, cursor state) to another backend, check the counts, then switch project.yml to it')
    .requiredOption('--to <type>', 'the target backend: postgres, or any installed warehouse type')
    .option('--set <key=value>', "a setting of the target's warehouse section (repeat); secrets by env var name: password_env=...", (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--keep-project', 'copy only: leave project.yml on DuckDB')
    .option('--json', 'machine-readable report')
    .option(...projectOpt)
    .addHelpText(
      'after',
      '\nThe target\'s passwords come from environment variables (default BASIN_WAREHOUSE_PASSWORD and\nBASIN_WAREHOUSE_READ_PASSWORD, or the names given by password_env / read_password_env).\n\nExamples:\n  $ basin warehouse migrate --to postgres --set host=db.internal --set database=analytics --set user=basin\n  $ basin warehouse migrate --to postgres --set port=5433 --keep-project --json\n',
    )
    .action(async (o: { to: string; set: string[]; keepProject?: boolean; json?: boolean; project: string }) => {
      const dir = path.resolve(o.project);
      if (runningServer(dir)) throw new CliExit(EXIT.failure, 'basin warehouse migrate: a Basin server is running for this project; stop it first ("basin stop"), so no sync writes during the copy.');
      const lock = acquireProjectLock(dir);
      try {
        const config = await requireProjectConfig(dir);
        const report = await migrateWarehouse({ config, to: o.to, section: settingsOf(o.set), keepProject: o.keepProject, progress: o.json ? () => undefined : out });
        if (o.json) return out(JSON.stringify(report, null, 2));
        const rows = report.tables.reduce((n, t) => n + t.rows, 0);
        out(`Copied ${report.tables.length} tables (${rows} rows), ${report.commits} commit markers and the cursor state of ${report.cursors} sources to ${report.to} (${report.format}).`);
        out(report.switched ? `project.yml now uses warehouse.type: ${report.to}. Check it with: basin warehouse status` : 'project.yml was left on DuckDB (--keep-project).');
      } catch (e) {
        if (e instanceof MigrationError) throw new CliExit(EXIT.failure, `basin warehouse migrate: ${e.message}`);
        if (e instanceof ConfigLoadError) throw e;
        throw e;
      } finally {
        lock.release();
      }
    });
}
