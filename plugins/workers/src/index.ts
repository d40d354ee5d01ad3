import { definePlugin, type PluginContext } from '@basin/core';
import { syncRemoteRef } from '@basin/plugin-sync/contract';
import { registerWorkerCommand } from './cli/worker-command.js';
import { WorkersSectionSchema, type WorkersSection } from './config.js';
import { queueConnection } from './connection.js';
import { workerMode } from './worker-mode.js';

export { WorkersSectionSchema, type WorkersSection } from './config.js';
export { queueConnection } from './connection.js';

/**
 * Sync workers (issue 22 item 5). With `workers: {enabled: true}` the server hands every sync (manual,
 * scheduled, watcher) to a PostgreSQL job queue; `basin worker` processes on any host take them, load
 * and swap into the server warehouse, and answer with the outcome. The server stays the one place that
 * schedules, records history and emits events and webhooks. Off (the default), nothing changes.
 */
export default definePlugin({
  name: 'workers',
  dependsOn: ['sync'],
  configSections: [{ section: 'workers', schema: WorkersSectionSchema }],
  commands: registerWorkerCommand,
  async register(ctx: PluginContext) {
    const section = ctx.config.section<WorkersSection | undefined>('workers');
    if (!section?.enabled || workerMode.active) return;
    // pg-boss loads only when workers are on (start-up time of every other project)
    const { SyncQueue } = await import('./queue.js');
    const queue = new SyncQueue(queueConnection(ctx.config, section), section, ctx.log);
    const remote = ctx.resolve(syncRemoteRef);
    remote.useExecutor(queue.executor());
    // the server (not a one-shot CLI command) takes back the syncs it sent before a restart
    ctx.onStart(async () => {
      const n = await remote.adoptRemote().catch((err: Error) => (ctx.log.error({ error: err.message }, 'taking back the syncs sent before the restart failed'), 0));
      if (n) ctx.log.info({ count: n }, 'waiting again for syncs sent to workers before the restart');
    });
    // jobs still queued stay queued for the workers; the server stops waiting for them
    ctx.onStop(() => queue.close(false));
  },
});
