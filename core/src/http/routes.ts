import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import type { RouteAccess } from '../rbac.js';

export interface RouteOptions {
  /** 'public' (no auth), 'auth' (any full session or key), or one permission name */
  permission: RouteAccess;
  schema?: FastifySchema & { summary?: string; description?: string; tags?: string[]; hide?: boolean };
  /** reachable with a partial (2FA pending) session; used by the 2FA verify route */
  allowPartial?: boolean;
  /** reachable by a user who must still set up 2FA or change an expired password */
  allowPending?: boolean;
  /** body size limit in bytes for this route */
  bodyLimit?: number;
  /** extra route config for plugins' hooks */
  config?: Record<string, unknown>;
  /** fastify route-level hooks, e.g. a multipart parser */
  preValidation?: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/** A route handler; query, params and body are already validated against the route's schema. */
export type BasinRequest = FastifyRequest & { query: any; params: any; body: any };
export type Handler = (req: BasinRequest, reply: FastifyReply) => unknown | Promise<unknown>;

export interface RouteRecord {
  method: string;
  url: string;
  permission: RouteAccess;
  owner: string;
  allowPartial: boolean;
  allowPending: boolean;
}

/** What a plugin uses to add routes: every route must declare its access level. */
export interface RouteRegistrar {
  add(method: HTTPMethods | HTTPMethods[], url: string, opts: RouteOptions, handler: Handler): void;
  get(url: string, opts: RouteOptions, handler: Handler): void;
  post(url: string, opts: RouteOptions, handler: Handler): void;
  put(url: string, opts: RouteOptions, handler: Handler): void;
  patch(url: string, opts: RouteOptions, handler: Handler): void;
  delete(url: string, opts: RouteOptions, handler: Handler): void;
}

/** The table of every registered route with its access level (walked by the permission-matrix test). */
export class RouteTable {
  readonly routes: RouteRecord[] = [];
  add(r: RouteRecord): void {
    this.routes.push(r);
  }
  find(method: string, url: string): RouteRecord | undefined {
    return this.routes.find((r) => r.method === method && r.url === url);
  }
}

export function createRegistrar(app: FastifyInstance, owner: string, isKnownPermission: (p: string) => boolean): RouteRegistrar {
  const add: RouteRegistrar['add'] = (method, url, opts, handler) => {
    if (!opts || !opts.permission) throw new Error(`Route ${method} ${url} from plugin "${owner}" declares no permission; declare 'public', 'auth' or a permission.`);
    if (opts.permission !== 'public' && opts.permission !== 'auth' && !isKnownPermission(opts.permission)) {
      throw new Error(`Route ${method} ${url} from plugin "${owner}" declares unknown permission "${opts.permission}".`);
    }
    const { schema, bodyLimit, preValidation } = opts;
    const tags = schema?.tags ?? [owner];
    app.route({
      method,
      url,
      bodyLimit,
      preValidation,
      schema: schema ? { ...schema, tags, ...(schema.hide ? { hide: true } : {}) } : { tags },
      config: {
        ...opts.config,
        permission: opts.permission,
        allowPartial: !!opts.allowPartial,
        allowPending: !!opts.allowPending,
        owner,
      },
      handler,
    });
  };
  return {
    add,
    get: (u, o, h) => add('GET', u, o, h),
    post: (u, o, h) => add('POST', u, o, h),
    put: (u, o, h) => add('PUT', u, o, h),
    patch: (u, o, h) => add('PATCH', u, o, h),
    delete: (u, o, h) => add('DELETE', u, o, h),
  };
}
