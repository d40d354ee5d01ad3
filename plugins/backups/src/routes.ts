import type { FastifyRequest } from 'fastify';
import { errors, type PluginContext } from '@basin/core';
import { Value } from '@sinclair/typebox/value';
import { Type } from '@sinclair/typebox';

const Body = Type.Object({ include_secrets: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
const check = (v: unknown) => Value.Check(Body, v);
import type { BackupService } from './service.js';
import { backupErrors } from './errors.js';

/** Backups through the running server (the single writer of the warehouse); `basin backup` uses these when a server runs. */
export function registerBackupRoutes(ctx: PluginContext, service: BackupService): void {
  ctx.routes.get('/api/backups', { errors: [backupErrors.object_store_missing, backupErrors.object_store_keys_missing, backupErrors.backup_in_progress], permission: 'platform.manage', schema: { summary: 'Backups in the object storage of cloud.yml, newest first' } }, async () => service.list());
  ctx.routes.post(
    '/api/backups',
    { errors: [backupErrors.object_store_missing, backupErrors.object_store_keys_missing, backupErrors.backup_in_progress], permission: 'platform.manage', schema: { summary: 'Back up the warehouse, state, users and configs to object storage now (body optional: {include_secrets: boolean})' } },
    async (req) => {
      // the body is optional, so it is checked here rather than by a route schema (which needs one)
      const body = req.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body) || !check(body)) throw errors.validation('The request is invalid: body.include_secrets must be a boolean.', [{ path: 'body.include_secrets', message: 'must be boolean' }]);
      const m = await service.create({ includeSecrets: (body as { include_secrets?: boolean }).include_secrets ?? false }, (line) => ctx.log.info({ backup: true }, line));
      return { id: m.id, created_at: m.created_at, files: m.files.length, bytes: m.files.reduce((a, f) => a + f.bytes, 0), warehouse_copy: m.warehouse_copy };
    },
  );
}
