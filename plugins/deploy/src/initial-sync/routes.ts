import type { FastifyRequest } from 'fastify';
import { BasinError, type PluginContext, type Principal } from '@basin/core';
import { Type } from '@sinclair/typebox';
import type { DeployTokens } from './deploy-token.js';
import type { InitialSync } from './runner.js';
import { deployErrors } from '../errors.js';

export const DEPLOY_TOKEN_HEADER = 'x-basin-deploy-token';
export const INITIAL_SYNC_PERMISSION = 'initial_sync.run';
const TOKEN_PATHS = new Set(['/api/initial-sync/start', '/api/initial-sync/status']);

/**
 * SPEC "Initial sync (first cloud deployment)". start and status take the one-time deploy token (header
 * X-Basin-Deploy-Token) or an admin; skip-source and cancel an admin. The token becomes a principal
 * holding only `initial_sync.run`, so the route guard treats both callers alike.
 */
export function registerInitialSyncRoutes(ctx: PluginContext, runner: InitialSync, tokens: DeployTokens): void {
  ctx.http.addHook('onRequest', async (req) => {
    const token = req.headers[DEPLOY_TOKEN_HEADER];
    if (token === undefined) return;
    const path = req.url.split('?')[0]!;
    if (!TOKEN_PATHS.has(path)) throw new BasinError(400, 'deploy_token_not_accepted', 'The deploy token is accepted only by /api/initial-sync/start and /api/initial-sync/status.');
    const check = tokens.check(String(token));
    if (!check.ok) throw new BasinError(401, check.reason === 'expired' ? 'deploy_token_expired' : 'deploy_token_invalid', check.reason === 'expired' ? 'The deploy token has expired; an admin can start the initial sync after logging in.' : 'The deploy token is not valid.');
    const p: Principal = { kind: 'deploy_token', userId: null, email: null, role: 'viewer', permissions: new Set([INITIAL_SYNC_PERMISSION]) };
    req.principal = p;
  });

  const who = (req: FastifyRequest) => (req.principal?.kind === 'deploy_token' ? 'deploy token' : (req.principal?.email ?? 'admin'));

  ctx.routes.post(
    '/api/initial-sync/start',
    {
      errors: [deployErrors.deploy_token_invalid, deployErrors.deploy_token_expired, deployErrors.deploy_token_used, deployErrors.initial_sync_running, deployErrors.sync_unavailable, deployErrors.unknown_source],
      response: { 202: Type.Unknown({ description: 'the initial sync started: its status with per-source progress' }) },
      permission: INITIAL_SYNC_PERMISSION,
      schema: { summary: 'Start the initial sync of every enabled source (one-time deploy token or admin)', body: Type.Optional(Type.Union([Type.Object({ sources: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })) }, { additionalProperties: false }), Type.Null()])) },
    },
    async (req, reply) => {
      if (req.principal?.kind === 'deploy_token') {
        if (!tokens.spend()) throw new BasinError(401, 'deploy_token_used', 'The deploy token was already used to start the initial sync; an admin can start it again after logging in.');
      }
      const status = runner.start(who(req), req.body?.sources);
      reply.code(202);
      return status;
    },
  );
  ctx.routes.get('/api/initial-sync/status', { errors: [deployErrors.deploy_token_invalid, deployErrors.deploy_token_expired, deployErrors.deploy_token_not_accepted], permission: INITIAL_SYNC_PERMISSION, schema: { summary: 'Initial sync state with per-source progress (one-time deploy token or admin)' } }, async () => runner.get());
  ctx.routes.post('/api/initial-sync/skip-source', { errors: [deployErrors.initial_sync_not_running], permission: 'platform.manage', schema: { summary: 'Skip the source syncing now; the initial sync goes on with the next (admin)' } }, async () => runner.skipCurrent());
  ctx.routes.post('/api/initial-sync/cancel', { errors: [deployErrors.initial_sync_not_running], permission: 'platform.manage', schema: { summary: 'Cancel the whole initial sync (admin)' } }, async () => runner.cancel());
}
