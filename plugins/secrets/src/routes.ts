import type { FastifyRequest } from 'fastify';
import type { PluginContext } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { KEY_MAX, KEY_PATTERN } from './key-name.js';
import type { SecretActor, SecretsStore } from './store.js';
import { secretErrors } from './errors.js';

const Key = Type.String({ pattern: KEY_PATTERN, minLength: 1, maxLength: KEY_MAX, description: 'environment variable name' });

export function actorOf(req: FastifyRequest): SecretActor {
  return { id: req.principal?.userId ?? null, email: req.principal?.email ?? null, ip: req.ip, via: 'api' };
}

/** SPEC "Secrets and provider OAuth": the .env part (all routes need config.manage). */
export function registerSecretRoutes(ctx: PluginContext, store: SecretsStore, oauthListing: () => Promise<unknown[]> | unknown[]): void {
  ctx.routes.get('/api/secrets', { permission: 'config.manage', schema: { summary: 'Environment variables of the project (values masked) and OAuth credentials' } }, async () => ({
    env: store.list(),
    encryption: store.encrypting ? 'aes-256-gcm' : 'none',
    oauth: await oauthListing(),
  }));

  ctx.routes.post(
    '/api/secrets',
    { errors: [secretErrors.invalid_secret_value, secretErrors.reserved_secret_key], permission: 'config.manage', schema: { summary: 'Add or update an environment variable in .env', body: Type.Object({ key: Key, value: Type.String({ maxLength: 65536 }) }, { additionalProperties: false }) } },
    async (req) => {
      const r = store.set(req.body.key, req.body.value, actorOf(req));
      return { key: req.body.key, created: r.created, encrypted: r.encrypted, value: '********' };
    },
  );

  ctx.routes.delete(
    '/api/secrets/:key',
    { permission: 'config.manage', schema: { summary: 'Remove an environment variable from .env', params: Type.Object({ key: Key }) } },
    async (req) => {
      store.unset(req.params.key, actorOf(req));
      return { key: req.params.key, deleted: true };
    },
  );
}
