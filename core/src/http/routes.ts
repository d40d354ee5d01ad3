import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface, RouteHandlerMethod } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { RouteAccess } from '../rbac.js';
import type { CatalogedError } from '../error-catalogue.js';

/** A route's schema: TypeBox schemas for params, querystring, headers and body, plus OpenAPI words. */
export interface RouteSchema extends FastifySchema {
  summary?: string;
  description?: string;
  tags?: string[];
  hide?: boolean;
}

export interface RouteOptions<S extends RouteSchema = RouteSchema> {
  /** 'public' (no auth), 'auth' (any full session or key), or one permission name */
  permission: RouteAccess;
  schema?: S;
  /**
   * The success bodies by status (200, 201, 202...), documented in OpenAPI and checked against real
   * responses by the schemathesis run. Documentation only: responses are never filtered by them.
   */
  response?: Record<number, TSchema | null>;
  /** the catalogued codes this route answers with beyond the ones every route may (auth, validation, parsing) */
  errors?: CatalogedError[];
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

/** A route handler's request: params, querystring, headers and body typed from the route's TypeBox schema (unknown without one). */
export type BasinRequest<S extends RouteSchema = RouteSchema> = FastifyRequest<RouteGenericInterface, RawServerDefault, RawRequestDefaultExpression, S, TypeBoxTypeProvider>;
export type Handler<S extends RouteSchema = RouteSchema> = (req: BasinRequest<S>, reply: FastifyReply) => unknown | Promise<unknown>;

export interface RouteRecord {
  method: string;
  url: string;
  permission: RouteAccess;
  owner: string;
  allowPartial: boolean;
  allowPending: boolean;
}

type Add = <S extends RouteSchema = RouteSchema>(url: string, opts: RouteOptions<S>, handler: Handler<S>) => void;

/** What a plugin uses to add routes: every route must declare its access level. */
export interface RouteRegistrar {
  add<S extends RouteSchema = RouteSchema>(method: HTTPMethods | HTTPMethods[], url: string, opts: RouteOptions<S>, handler: Handler<S>): void;
  get: Add;
  post: Add;
  put: Add;
  patch: Add;
  delete: Add;
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

/** What the OpenAPI document shows of a route beyond its request schema (route config key `openapi`). */
export interface RouteDocs {
  response?: Record<number, TSchema | null>;
  errors?: CatalogedError[];
}

/**
 * `deferred`: the routes are checked now but added to fastify by whoever runs the list (the app, when
 * fastify boots); a one-shot CLI command that serves no request never pays for adding them.
 */
export function createRegistrar(app: FastifyInstance, owner: string, isKnownPermission: (p: string) => boolean, deferred?: Array<() => void>): RouteRegistrar {
  function add<S extends RouteSchema>(method: HTTPMethods | HTTPMethods[], url: string, opts: RouteOptions<S>, handler: Handler<S>): void {
    if (!opts || !opts.permission) throw new Error(`Route ${method} ${url} from plugin "${owner}" declares no permission; declare 'public', 'auth' or a permission.`);
    if (opts.permission !== 'public' && opts.permission !== 'auth' && !isKnownPermission(opts.permission)) {
      throw new Error(`Route ${method} ${url} from plugin "${owner}" declares unknown permission "${opts.permission}".`);
    }
    const { schema, bodyLimit, preValidation } = opts;
    const tags = schema?.tags ?? [owner];
    const docs: RouteDocs = { response: opts.response, errors: opts.errors };
    const routeSchema: FastifySchema = schema ? { ...schema, tags, ...(schema.hide ? { hide: true } : {}) } : { tags };
    const addRoute = () => app.route({
      method,
      url,
      bodyLimit,
      preValidation,
      schema: routeSchema,
      config: {
        ...opts.config,
        permission: opts.permission,
        allowPartial: !!opts.allowPartial,
        allowPending: !!opts.allowPending,
        owner,
        openapi: docs,
      },
      // the request's parts were validated against `schema`, which is what BasinRequest<S> types them as
      handler: handler as RouteHandlerMethod,
    });
    if (deferred) deferred.push(addRoute);
    else addRoute();
  }
  return {
    add,
    get: (u, o, h) => add('GET', u, o, h),
    post: (u, o, h) => add('POST', u, o, h),
    put: (u, o, h) => add('PUT', u, o, h),
    patch: (u, o, h) => add('PATCH', u, o, h),
    delete: (u, o, h) => add('DELETE', u, o, h),
  };
}
