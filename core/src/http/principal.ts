import type { Role } from '../rbac.js';

/** Who is calling. Set on every request by the authenticator (the auth plugin) before the guard runs. */
export interface Principal {
  kind: 'session' | 'api_key' | 'auth_disabled' | 'deploy_token';
  userId: string | null;
  email: string | null;
  role: Role;
  permissions: ReadonlySet<string>;
  sessionId?: string;
  apiKeyId?: string;
  /** password accepted, second factor pending */
  partial?: boolean;
  /** must set up 2FA or change password before anything else */
  pending?: 'setup_2fa' | 'change_password';
}

/** Authenticates a request; provided by the auth plugin as the `authenticator` service. */
export interface Authenticator {
  authenticate(req: import('fastify').FastifyRequest): Promise<Principal | null>;
  /** the same from raw headers, for a WebSocket upgrade that never becomes a fastify request */
  authenticateHeaders?(headers: import('node:http').IncomingHttpHeaders, ip: string): Promise<Principal | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    permission?: string;
    allowPartial?: boolean;
    allowPending?: boolean;
    owner?: string;
    /** response schemas and error codes for the OpenAPI document */
    openapi?: import('./routes.js').RouteDocs;
  }
}
