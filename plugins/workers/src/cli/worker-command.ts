import os from 'node:os';
import path from 'node:path';
import { CliExit, EXIT, projectOption, type BasinApp, type CliContext, type Logger } from '@basin/core';
import { syncRemoteRef, type SyncRemote } from '@basin/plugin-sync/contract';
import type { WorkersSection } from '../config.js';
import { workerMode } from '../worker-mode.js';

/**
 * `basin worker`: a Basin process that takes sync jobs from the queue. It boots the project with its
 * own local state (`.basin/workers/<name>`: the DuckDB load engine, state.db, the lock), so it runs
 * beside the server on one host or on another host that mounts the project. It stops on SIGTERM or
 * SIGINT after the syncs it runs end; a second signal stops at once (the queue fails those jobs later).
 */
export function registerWorkerCommand(cli: CliContext): void {
  projectOption(cli.program.command('worker').description('Run syncs the server queues (workers: enabled in project.yml)'))
    .option('--name <name>', "this worker's name (its local state is .basin/workers/<name> in the project)", os.hostname())
    .option('--work-dir <dir>', 'where to keep the local state instead')
    .option('--concurrency <n>', 'syncs run at once (default: workers.concurrency)')
    .addHelpText('after', '\nExamples:\n  $ basin worker --project ~/acme\n  $ basin worker --project ~/acme --name etl-2 --concurrency 2\n')
    .action(async (o: { project: string; name: string; workDir?: string; concurrency?: string }) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(o.name)) throw new CliExit(EXIT.config, 'basin worker: --name takes letters, digits, dot, dash and underscore.');
      const projectDir = path.resolve(o.project);
      const localDir = path.resolve(o.workDir ?? path.join(projectDir, '.basin', 'workers', o.name));
      workerMode.active = true;
      const out = (m: string) => void cli.stdout.write(`${m}\n`);
      const app: BasinApp = await cli.boot({ projectDir, localDir, notice: (m) => void cli.stderr.write(`${m}\n`) });
      const section = app.config.section<WorkersSection | undefined>('workers');
      if (!section?.enabled) {
        await app.close();
        throw new CliExit(EXIT.failure, 'basin worker: this project does not queue syncs; set `workers: {enabled: true}` in project.yml (and restart the server).');
      }
      const remote = app.container.resolve<SyncRemote>(syncRemoteRef.id);
      const { SyncQueue } = await import('../queue.js');
      const { queueConnection } = await import('../connection.js');
      const queue = new SyncQueue(queueConnection(app.config, section), section, app.container.resolve<Logger>('log'));
      const concurrency = o.concurrency ? Number(o.concurrency) : section.concurrency;
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliExit(EXIT.config, 'basin worker: --concurrency takes a whole number from 1.');
      const who = `${o.name}@${os.hostname()}:${process.pid}`;
      const { runReported } = await import('../worker-run.js');
      await queue.work(concurrency, async (job, control, jobId) => {
        out(`${new Date().toISOString()} sync ${job.sync_id} of ${job.source}: started`);
        const onStop = (why: 'cancel' | 'ended') =>
          out(`${new Date().toISOString()} sync ${job.sync_id} of ${job.source}: ${why === 'cancel' ? 'cancel requested by the server' : 'the job queue ended the job (workers.job_timeout_seconds), stopping'}`);
        const r = await runReported({ job, jobId, who, control, events: app.events, remote, onStop });
        out(`${new Date().toISOString()} sync ${job.sync_id} of ${job.source}: ${r.status}${r.rebuilt ? ' (rebuilt in full)' : ''}, ${r.rows} rows${r.error ? `: ${r.error}` : ''}`);
        return r;
      });
      out(`worker ${who} takes sync jobs (${concurrency} at once); local state in ${localDir}`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.once('SIGTERM', () => process.exit(EXIT.failure));
          process.once('SIGINT', () => process.exit(EXIT.failure));
          out('stopping: finishing the syncs that run');
          resolve();
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      await queue.close(true);
      await app.close();
    });
}
