import type { FastifyReply, FastifyRequest } from 'fastify';
import { BasinError, errors, type PluginContext } from '@basin/core';
import { SourceError } from '@basin/sdk';
import { Type } from '@sinclair/typebox';
import type { SecretAudit } from '../store.js';
import type { ConnectFlow } from './connect-flow.js';
import type { OAuthConnections } from './connections.js';
import { secretErrors } from '../errors.js';

const BIND_COOKIE = 'basin_oauth_bind';
const CALLBACK_PATH = '/oauth/callback/';
const Params = Type.Object({ source_type: Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 }) });
const SETTINGS = '/settings/secrets';

function cookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

export interface OAuthRouteDeps {
  connections: OAuthConnections;
  flow: ConnectFlow;
  audit: SecretAudit;
  /** the address providers send browsers back to; null when not set (connecting is refused) */
  publicUrl: () => string | null;
}

/** SPEC "Secrets and provider OAuth": the OAuth part (all routes need config.manage). */
export function registerOAuthRoutes(ctx: PluginContext, d: OAuthRouteDeps): void {
  const actor = (req: FastifyRequest) => ({ id: req.principal?.userId ?? null, email: req.principal?.email ?? null, ip: req.ip, via: 'api' as const });

  ctx.routes.get('/api/secrets/oauth', { permission: 'config.manage', schema: { summary: 'Provider OAuth connections of source types: connected, account, scopes, expiry' } }, async () => d.connections.status());

  ctx.routes.delete(
    '/api/secrets/oauth/:source_type',
    { permission: 'config.manage', schema: { summary: "Disconnect a source type's provider OAuth (its stored tokens are deleted)", params: Params } },
    async (req) => {
      d.connections.disconnect(req.params.source_type);
      d.audit('oauth.disconnect', actor(req), req.params.source_type, {});
      return { source_type: req.params.source_type, connected: false };
    },
  );

  ctx.routes.get(
    '/oauth/connect/:source_type',
    { errors: [secretErrors.oauth_public_url_required, secretErrors.oauth_not_supported, secretErrors.oauth_provider_unconfigured, secretErrors.oauth_client_missing, secretErrors.oauth_needs_session], permission: 'config.manage', schema: { summary: "Start connecting a source type's provider (authorization code with PKCE); redirects to the provider", params: Params } },
    async (req, reply) => {
      const base = d.publicUrl();
      if (!base) {
        throw errors.badRequest(
          'Provider OAuth needs the address this server is reached at: set oauth.public_url in .basin/project.yml (or BASIN_PUBLIC_URL), and register <that address>/oauth/callback/<source_type> as the redirect URI at the provider.',
          undefined,
          'oauth_public_url_required',
        );
      }
      const type = req.params.source_type;
      const { url, binding, maxAge } = d.flow.begin(type, req.principal, `${base}${CALLBACK_PATH}${type}`);
      const secure = base.startsWith('https:') ? '; Secure' : '';
      reply.header('set-cookie', `${BIND_COOKIE}=${binding}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`);
      d.audit('oauth.connect_started', actor(req), type, {});
      return reply.redirect(url, 302);
    },
  );

  ctx.routes.get(
    '/oauth/callback/:source_type',
    {
      permission: 'config.manage',
      schema: {
        summary: 'The provider sends the browser back here; the code is exchanged and the tokens stored, then the settings page is shown',
        params: Params,
        querystring: Type.Object({ code: Type.Optional(Type.String({ maxLength: 4096 })), state: Type.Optional(Type.String({ maxLength: 512 })), error: Type.Optional(Type.String({ maxLength: 512 })) }),
      },
    },
    async (req, reply) => {
      const type = req.params.source_type;
      reply.header('set-cookie', `${BIND_COOKIE}=; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`);
      try {
        const c = await d.flow.complete(type, req.query, req.principal, cookie(req, BIND_COOKIE));
        d.audit('oauth.connect', actor(req), type, { account: c.account, scopes: c.scopes });
        return reply.redirect(`${SETTINGS}?oauth_connected=${encodeURIComponent(type)}`, 302);
      } catch (e) {
        if (!(e instanceof BasinError) && !(e instanceof SourceError)) throw e;
        const code = e.code;
        d.audit('oauth.connect', actor(req), type, { refused: code }, 'failure');
        ctx.log.warn({ source_type: type, code }, 'provider OAuth callback refused');
        return reply.redirect(`${SETTINGS}?oauth_error=${encodeURIComponent(code)}&source_type=${encodeURIComponent(type)}`, 302);
      }
    },
  );
}
