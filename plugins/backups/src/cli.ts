import fs from 'node:fs';
import path from 'node:path';
import { callServer, CliExit, EXIT, isBasinError, runningServer, type BasinApp, type CliContext } from '@basin/core';
import { backupsRef } from './contract.js';
import { ObjectStore } from './object-store.js';
import { restoreBackup } from './restore.js';
import { objectStoreSettings } from './settings.js';

const projectOpt = ['--project <dir>', 'project directory', process.cwd()] as const;

/** `basin backup [list]` and `basin restore <id|latest>` */
export function registerBackupCommands(cli: CliContext): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const fail = (e: unknown): never => {
    if (isBasinError(e)) throw new CliExit(EXIT.failure, `basin: ${e.message}`);
    throw e;
  };
  const withApp = async <T>(project: string, fn: (app: BasinApp) => Promise<T>): Promise<T> => {
    let app: BasinApp | undefined;
    try {
      app = await cli.boot({ projectDir: path.resolve(project) });
      return await fn(app);
    } catch (e) {
      return fail(e);
    } finally {
      await app?.close();
    }
  };
  const remote = async (project: string, method: string, p: string, body?: unknown) => {
    const server = runningServer(path.resolve(project))!;
    out(`A Basin server is running for this project (pid ${server.pid}); it makes the backup.`);
    const r = await callServer(server, method, p, body);
    if (r.status === 401 || r.status === 403) throw new CliExit(EXIT.failure, 'The running server refused the request; set BASIN_API_KEY to an admin API key (basin keys create).');
    if (!r.ok) throw new CliExit(EXIT.failure, `basin backup: ${r.body?.error?.message ?? `HTTP ${r.status}`}`);
    return r.body;
  };

  const backup = cli.program
    .command('backup')
    .description('Back up the warehouse (checkpointed), state.db, auth.db, configs and the dbt project to the object storage of .basin/cloud.yml')
    .option('--include-secrets', 'also upload .env, .ingest/secrets.toml, .basin/bi.yml and .basin/secret.key')
    .option('-o, --out <file>', 'write a local .tar.gz of the whole project instead (config, secrets, dbt project, uploads, warehouse, state and users)')
    .option('--json', 'print JSON (with --out)')
    .option(...projectOpt)
    .addHelpText('after', '\nExamples:\n  $ basin backup                     # to the object storage of .basin/cloud.yml\n  $ basin backup --out /backups/acme.tar.gz --json\n  $ basin backup list\n')
    .action(async (o: { includeSecrets?: boolean; out?: string; json?: boolean; project: string }) => {
      if (o.out) return (await import('./local-archive.js')).runBackup(cli, path.resolve(o.project), o);
      if (runningServer(path.resolve(o.project))) {
        const r = await remote(o.project, 'POST', '/api/backups', { include_secrets: !!o.includeSecrets });
        return out(`Backup ${r.id}: ${r.files} files, ${r.bytes} bytes.`);
      }
      const m = await withApp(o.project, (app) => app.resolve(backupsRef).create({ includeSecrets: !!o.includeSecrets }, out));
      out(`Backup ${m.id} done. Restore it with: basin restore ${m.id}`);
    });
  backup
    .command('list')
    .option('--json', 'machine-readable output')
    .option(...projectOpt)
    .description('List the backups in object storage, newest first')
    .addHelpText('after', '\nExamples:\n  $ basin backup list\n  $ basin backup list --json\n')
    .action(async (o: { json?: boolean; project: string }) => {
      const rows = runningServer(path.resolve(o.project)) ? await remote(o.project, 'GET', '/api/backups') : await withApp(o.project, (app) => app.resolve(backupsRef).list());
      if (o.json) return out(JSON.stringify(rows, null, 2));
      if (!rows.length) return out('No backups yet: run "basin backup".');
      for (const r of rows) out(`${r.id}\t${r.created_at}\t${r.files} files\t${r.bytes} bytes${r.include_secrets ? '\twith secrets' : ''}`);
    });

  cli.program
    .command('restore')
    .argument('<backup>', 'a backup id from "basin backup list", "latest", or a .tar.gz written by "basin backup --out"')
    .option('-y, --yes', 'with an archive: replace an existing project (it is kept beside as <dir>.before-restore-<time>)')
    .option('--json', 'print JSON (with an archive)')
    .option(...projectOpt)
    .description('Restore a backup into the project (stop the server first); every file is checked against its checksum before anything changes')
    .addHelpText('after', '\nExamples:\n  $ basin restore latest\n  $ basin restore acme-backup.tar.gz --project ~/acme --yes\n')
    .action(async (which: string, o: { project: string; yes?: boolean; json?: boolean }) => {
      const dir = path.resolve(o.project);
      // a local archive (basin backup --out) rather than an id in object storage
      if (/\.tar\.gz$/.test(which) || fs.existsSync(which)) return (await import('./local-archive.js')).runRestore(cli, dir, which, o);
      const server = runningServer(dir);
      if (server) throw new CliExit(EXIT.failure, `basin restore: a Basin server is running for this project (pid ${server.pid}); stop it first, then restore.`);
      // settings from the project's cloud.yml and .env as they are now (a fresh server has them from deploy)
      const m = await withApp(o.project, async (app) => {
        const settings = objectStoreSettings(app.config);
        const servingPath = app.warehouse.servingPath;
        await app.close();
        const store = new ObjectStore(settings);
        try {
          return await restoreBackup(dir, store, which, servingPath, out);
        } finally {
          store.destroy();
        }
      });
      out(`Restored backup ${m.id} (${m.created_at}, Basin ${m.basin_version}): ${m.files.length} files. Start Basin to use it.`);
    });
}
