// `basin warehouse up`: starts the local single-host server of the project's warehouse backend (Trino
// with its Iceberg catalog in a local PostgreSQL) in the foreground, until Ctrl-C. A backend without a
// local server (DuckDB is a file; PostgreSQL and Trino clusters are the operator's) says so.
import path from 'node:path';
import { CliExit, EXIT, warehouseBackend, warehouseBackendContext, type CliContext, type LocalWarehouseServer } from '@basin/core';

export function registerWarehouseUpCommand(cli: CliContext): void {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  // `basin warehouse` may already exist (migrate, status): add to it
  const group = cli.program.commands.find((c) => c.name() === 'warehouse') ?? cli.program.command('warehouse').description("The project's warehouse backend");
  group
    .command('up')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Start a local server of the project\'s warehouse backend (Trino: a single-host coordinator) and keep it running until Ctrl-C')
    .action(async (o: { project: string }) => {
      const app = await cli.boot({ projectDir: path.resolve(o.project) });
      const ctx = warehouseBackendContext(app.config);
      await app.close();
      const type = String(ctx.settings.type);
      const backend = await warehouseBackend(type);
      if (!backend.up) throw new CliExit(EXIT.failure, `basin warehouse up: the ${type} warehouse has no local server to start (it is ${type === 'duckdb' ? 'a file Basin opens itself' : 'a server you run and Basin connects to'}).`);
      let server: LocalWarehouseServer;
      try {
        server = await backend.up(ctx, (l) => out(l));
      } catch (e) {
        throw new CliExit(EXIT.failure, `basin warehouse up: ${(e as Error).message}`);
      }
      out(`${type} is up at ${server.location}; Ctrl-C stops it`);
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        out(`stopping ${type}...`);
        void server.stop();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await server.exited;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (!stopping) throw new CliExit(EXIT.failure, `basin warehouse up: ${type} exited on its own; see its log above`);
    });
}
