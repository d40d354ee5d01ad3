// `basin warehouse up`: starts the local single-host server of the project's warehouse backend (Trino
// with its Iceberg catalog in a local PostgreSQL) in the foreground, until Ctrl-C. A backend without a
// local server (DuckDB is a file; PostgreSQL and Trino clusters are the operator's) says so.
import path from 'node:path';
import { CliExit, EXIT, requireProjectConfig, warehouseBackend, warehouseBackendContext, type CliContext, type LocalWarehouseServer } from '@basin/core';

/** `basin warehouse up` under the `warehouse` command group */
export function registerWarehouseUpCommand(wh: CliContext['program'], out: (line: string) => void): void {
  wh.command('up')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Start a local server of the project\'s warehouse backend (Trino: a single-host coordinator) and keep it running until Ctrl-C')
    .addHelpText('after', '\nExamples:\n  $ basin warehouse up\n  $ basin warehouse up --project ~/acme\n')
    .action(async (o: { project: string }) => {
      const ctx = warehouseBackendContext(await requireProjectConfig(path.resolve(o.project)));
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
