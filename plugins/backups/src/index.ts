import { coreServices, definePlugin } from '@basin/core';
import { authRef } from '@basin/plugin-auth/contract';
import { scheduleJobTypesPoint } from '@basin/plugin-scheduler/contract';
import { registerBackupCommands } from './cli.js';
import { backupsRef } from './contract.js';
import { ObjectStore } from './object-store.js';
import { registerBackupRoutes } from './routes.js';
import { BackupService } from './service.js';
import { objectStoreSettings } from './settings.js';
import { platformPermissions } from '@basin/plugin-platform/contract';

export { BackupService } from './service.js';
export { ObjectStore, type ObjectStoreSettings } from './object-store.js';
export { restoreBackup } from './restore.js';
export { objectStoreSettings } from './settings.js';
export { backupsRef } from './contract.js';

/** Backups to S3-compatible object storage (cloud.yml `object_store`), `basin backup|restore`, and the `backup` schedule type. */
export default definePlugin({
  name: 'backups',
  optionalDependsOn: ['auth', 'scheduler', 'platform'],
  // SPEC's platform.manage guards the backup routes; declared here too so the plugin works without platform
  permissions: [platformPermissions.manage],
  commands: registerBackupCommands,
  register(ctx) {
    const service = new BackupService({
      projectDir: ctx.config.projectDir,
      projectName: ctx.config.project.name,
      dbPath: ctx.config.platform.db_path,
      txDir: ctx.config.platform.tx_project_dir,
      warehouse: ctx.resolve(coreServices.warehouse),
      stateDb: ctx.resolve(coreServices.stateDb),
      authDb: ctx.tryResolve(authRef)?.db ?? null,
      store: () => new ObjectStore(objectStoreSettings(ctx.config)),
      clock: ctx.clock,
    });
    ctx.provide(backupsRef, service);
    ctx.health(() => ({ backups: { configured: !!ctx.config.file<{ object_store?: unknown }>('cloud').object_store, ...service.health() } }));
    registerBackupRoutes(ctx, service);
    ctx.extensionPoint(scheduleJobTypesPoint)?.contribute('backup', {
      run: async ({ schedule, log }) => {
        try {
          const m = await service.create({ includeSecrets: schedule.include_secrets ?? false }, log);
          log(`backup ${m.id} uploaded`);
          return { rows: null, error: null };
        } catch (e) {
          return { rows: null, error: (e as Error).message };
        }
      },
    });
  },
});
