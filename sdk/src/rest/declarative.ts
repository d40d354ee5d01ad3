import type { Static, TSchema } from '@sinclair/typebox';
import type { SourceManifest } from '../declare.js';
import { defineSource, SourceError, type ReadItem, type ResourceSpec, type SourceContext, type SourceDefinition } from '../types.js';
import type { AuthSpec } from './auth.js';
import { batchRecords } from './batch.js';
import { RestClient, type QueryValue } from './client.js';
import { DEFAULT_RETRY } from './retry.js';
import { flattened } from './flatten.js';
import { IncrementalCursor, type CursorState } from './incremental.js';
import { paginate, type Paginator, type PaginatorSpec } from './paginators.js';
import { getPath, selectRecords } from './select.js';

/** Where and how to call a vendor, from its validated config. */
export interface RestConnection {
  baseUrl: string;
  auth: AuthSpec;
  headers?: Record<string, string>;
  /** vendor error answers that mean bad credentials or throttling (see RestClientOptions.classifyError) */
  classifyError?: (status: number, body: string) => 'auth' | 'rate_limit' | null;
}

/** Incremental loading of a resource by a record field the API can filter on. */
export interface IncrementalSpec<C> {
  /** record field holding the cursor (`updated_at`, `created`...) */
  cursorField: string;
  /** query parameter that receives the start value (omitted: records are only filtered here) */
  param?: string;
  /** query parameter that receives the end of a date-range sync */
  endParam?: string;
  /** the parameter's format of a cursor value or a `YYYY-MM-DD` start/end date (Stripe: unix seconds) */
  format?: (value: string | number) => QueryValue;
  /** the first start value when there is no state (typically the config's start_date) */
  initialValue?: (config: C) => string | number | undefined;
  /** the end of the range when the run gives none (typically the config's end_date) */
  endValue?: (config: C) => string | undefined;
}

/** What a resource's custom `read` gets: the client, the cursor and a paginating helper. */
export interface ResourceRun<C> {
  ctx: SourceContext<C>;
  config: C;
  client: RestClient;
  /** the resource being read */
  resource: { name: string; primaryKey?: string[] };
  /** null when the resource is not incremental */
  cursor: IncrementalCursor | null;
  /** the incremental query parameters of this run, formatted */
  cursorParams(): Record<string, QueryValue>;
  /** the parent record when the resource is read per parent */
  parent?: Record<string, unknown>;
  /** one request's JSON body, after the declaration's `responseError` check (report APIs that are not lists) */
  fetchJson(path: string, req?: { method?: string; params?: Record<string, QueryValue>; json?: unknown; headers?: Record<string, string> }): Promise<unknown>;
  /**
   * The records of every page of a POST endpoint paged by a token in the body (Notion's
   * `start_cursor`/`next_cursor`): `cursorParam` is set in the next body from `cursorPath` of the answer.
   */
  postPages(path: string, body: Record<string, unknown>, opts: { cursorPath: string; cursorParam: string; dataSelector: string; hasMorePath?: string }): AsyncGenerator<Record<string, unknown>[]>;
  /** the records of every page of a GET endpoint (the resource's paginator and data selector by default) */
  pages(path: string, opts?: { params?: Record<string, QueryValue>; paginator?: PaginatorSpec | Paginator; dataSelector?: string }): AsyncGenerator<Record<string, unknown>[]>;
}

export interface RestResource<C> {
  /** table name */
  name: string;
  description?: string;
  /** path relative to the base URL; `{column}` placeholders are filled from the parent record */
  path?: string | ((config: C, parent?: Record<string, unknown>) => string);
  params?: Record<string, QueryValue> | ((config: C) => Record<string, QueryValue>);
  /** headers of this resource's requests (a media type) */
  headers?: Record<string, string>;
  /** dotted path of the records in a response (default: detected) */
  dataSelector?: string;
  paginator?: PaginatorSpec | (() => Paginator);
  primaryKey?: string[];
  incremental?: IncrementalSpec<C>;
  /** default: merge when incremental with a primary key, append when incremental without, replace otherwise */
  writeDisposition?: ResourceSpec['writeDisposition'];
  /** read once per record of another resource (Slack messages per channel); `field` of the parent fills `{as}` and the column `as`; `filter` picks parents */
  parent?: { resource: string; field: string; as: string; /** query parameter that gets the parent's key (instead of a path placeholder) */ param?: string; filter?: (parent: Record<string, unknown>, config: C) => boolean };
  /** reshapes or drops (null) a record before it is flattened */
  map?: (record: Record<string, unknown>, config: C, parent?: Record<string, unknown>) => Record<string, unknown> | null;
  /** custom reading, for APIs that are not paged GETs (POST queries, report APIs) */
  read?: (run: ResourceRun<C>) => AsyncIterable<Record<string, unknown>[]>;
  /** only a parent of other resources (e.g. the configured list of players): not a table */
  hidden?: boolean;
  /** keep nested objects as they are instead of flattening (default false) */
  keepNested?: boolean;
}

export interface RestSourceDeclaration<S extends TSchema> extends SourceManifest<S> {
  connection(config: Static<S>): RestConnection;
  /** paginator of every resource that declares none */
  paginator?: PaginatorSpec | (() => Paginator);
  dataSelector?: string;
  endpoints: Array<RestResource<Static<S>>>;
  /** resources found at run time (Airtable's tables of a base), added to `endpoints` */
  dynamicEndpoints?(ctx: SourceContext<Static<S>>, client: RestClient): Promise<Array<RestResource<Static<S>>>>;
  /** resources the config selects (e.g. its `endpoints:` list); default: defaultResources, else all */
  selected?(config: Static<S>): string[] | undefined;
  /** rows per batch handed to the loader (default 5000; a function of the config allowed) */
  batchSize?: number | ((config: Static<S>) => number);
  /** retries of a request after a 5xx, 429 or network error (default 5) */
  retries?: (config: Static<S>) => number;
  /**
   * An error the API reports in a successful response (Slack's `{"ok": false, "error": "invalid_auth"}`):
   * return `auth` for a credentials problem (the error then names the variable to fix), else a message.
   */
  responseError?(body: unknown): { auth: boolean; message: string } | null;
  /** a custom connection check; default: the first page of the first selected resource */
  check?(ctx: SourceContext<Static<S>>, client: RestClient): Promise<string>;
}

interface InternalRun<C> extends ResourceRun<C> {
  def: RestResource<C>;
}

/** Retries of check(): answers quickly instead of backing off for a minute. */
const CHECK_RETRIES = 1;

function writeDispositionOf<C>(r: RestResource<C>): ResourceSpec['writeDisposition'] {
  if (r.writeDisposition) return r.writeDisposition;
  if (r.incremental) return r.primaryKey?.length ? 'merge' : 'append';
  return 'replace';
}

function specOf<C>(r: RestResource<C>): ResourceSpec {
  return { name: r.name, primaryKey: r.primaryKey, cursorField: r.incremental?.cursorField, writeDisposition: writeDispositionOf(r), description: r.description };
}

function fillPath(template: string, parent: Record<string, unknown> | undefined, as: string | undefined): string {
  if (!parent || !as) return template;
  return template.replace(`{${as}}`, encodeURIComponent(String(parent.__parentKey)));
}

function paginatorOf(p: PaginatorSpec | (() => Paginator) | undefined): PaginatorSpec | Paginator {
  if (!p) return { type: 'auto' };
  return typeof p === 'function' ? p() : p;
}

/**
 * Declares a REST source as data: base URL and auth from the config, resources with their path,
 * record selector, paginator, primary key and incremental cursor. The runtime reads every page
 * with retries and rate-limit handling, filters what an earlier sync loaded, flattens nested
 * objects (see `flattenRecord`) and commits the cursor with the data. Custom code only where the
 * vendor needs it (`read`, `map`, `check`).
 */
export function declareRestSource<S extends TSchema>(decl: RestSourceDeclaration<S>): SourceDefinition<S> {
  type C = Static<S>;
  const byName = new Map(decl.endpoints.map((e) => [e.name, e]));

  const clientFor = (ctx: SourceContext<C>, retries?: number) => {
    const conn = decl.connection(ctx.config);
    return new RestClient({
      baseUrl: conn.baseUrl,
      auth: conn.auth,
      headers: conn.headers,
      classifyError: conn.classifyError,
      secret: (n) => ctx.secret(n),
      oauthToken: ctx.oauthToken ? () => ctx.oauthToken() : undefined,
      fetch: ctx.fetch,
      signal: ctx.signal,
      log: ctx.log,
      sleep: ctx.sleep,
      retry: { retries: retries ?? decl.retries?.(ctx.config) ?? DEFAULT_RETRY.retries },
    });
  };

  function failOnResponseError(body: unknown, client: RestClient): void {
    const e = decl.responseError?.(body);
    if (!e) return;
    const message = client.auth.redact(e.message);
    if (e.auth) throw new SourceError('unauthorized', `${decl.title ?? decl.type} refused the credentials (${message}); check ${client.auth.hint()}.`);
    throw new SourceError('upstream_error', `${decl.title ?? decl.type} answered an error: ${message}`);
  }

  const selectedNames = (config: C, all = decl.endpoints): string[] => decl.selected?.(config) ?? decl.defaultResources ?? all.map((e) => e.name);

  /** the static resources plus the dynamic ones of this run */
  async function endpointsOf(ctx: SourceContext<C>, client: RestClient): Promise<Map<string, RestResource<C>>> {
    if (!decl.dynamicEndpoints) return byName;
    const found = await decl.dynamicEndpoints(ctx, client);
    return new Map([...byName, ...found.map((e) => [e.name, e] as const)]);
  }

  function runFor(ctx: SourceContext<C>, client: RestClient, r: RestResource<C>, cursor: IncrementalCursor | null, parent?: Record<string, unknown>): InternalRun<C> {
    const inc = r.incremental;
    const fmt = (v: string | number) => (inc?.format ? inc.format(v) : v);
    return {
      ctx,
      config: ctx.config,
      client,
      resource: { name: r.name, primaryKey: r.primaryKey },
      def: r,
      cursor,
      parent,
      cursorParams() {
        const p: Record<string, QueryValue> = {};
        if (inc?.param && cursor?.start !== undefined) p[inc.param] = fmt(cursor.start);
        const end = ctx.options.endDate ?? inc?.endValue?.(ctx.config);
        if (inc?.endParam && end) p[inc.endParam] = fmt(end);
        return p;
      },
      async fetchJson(path, req = {}) {
        const res = await client.request(path, req);
        failOnResponseError(res.body, client);
        return res.body;
      },
      async *postPages(path, body, opts) {
        let cursor: string | undefined;
        const seen = new Set<string>();
        do {
          const res = await client.request(path, { method: 'POST', json: cursor ? { ...body, [opts.cursorParam]: cursor } : body });
          failOnResponseError(res.body, client);
          const rows = selectRecords(res.body, opts.dataSelector);
          if (rows.length) yield rows;
          const next = getPath(res.body, opts.cursorPath);
          const more = opts.hasMorePath ? getPath(res.body, opts.hasMorePath) === true : true;
          cursor = more && typeof next === 'string' && next && !seen.has(next) ? next : undefined;
          if (cursor) seen.add(cursor);
        } while (cursor);
      },
      async *pages(path, opts = {}) {
        const it = paginate(client, path, {
          params: opts.params,
          paginator: opts.paginator ?? paginatorOf(r.paginator ?? decl.paginator),
          dataSelector: opts.dataSelector ?? r.dataSelector ?? decl.dataSelector,
          headers: r.headers,
          log: ctx.log,
        });
        for await (const page of it) {
          failOnResponseError(page.response.body, client);
          yield page.records;
        }
      },
    };
  }

  async function* recordsOf(run: InternalRun<C>): AsyncGenerator<Record<string, unknown>[]> {
    const r = run.def;
    if (r.read) {
      yield* r.read(run);
      return;
    }
    const template = typeof r.path === 'function' ? r.path(run.config, run.parent) : (r.path ?? r.name);
    const base = typeof r.params === 'function' ? r.params(run.config) : r.params;
    const parentParam = r.parent?.param && run.parent ? { [r.parent.param]: String(run.parent.__parentKey) } : {};
    yield* run.pages(fillPath(template, run.parent, r.parent?.as), { params: { ...base, ...parentParam, ...run.cursorParams() } });
  }

  /** One pass over a resource (or one parent's slice of it): cursor filtering, mapping, flattening. */
  async function* shaped(run: InternalRun<C>): AsyncGenerator<Record<string, unknown>[]> {
    const r = run.def;
    for await (const page of recordsOf(run)) {
      let rows = page;
      if (r.map) rows = rows.map((x) => r.map!(x, run.config, run.parent)).filter((x): x is Record<string, unknown> => x !== null);
      if (r.parent && run.parent) for (const x of rows) x[r.parent.as] = run.parent.__parentKey;
      if (run.cursor) rows = run.cursor.filter(rows);
      if (!r.keepNested) rows = rows.map(flattened);
      if (rows.length) yield rows;
    }
  }

  const cursorOf = (ctx: SourceContext<C>, r: RestResource<C>, state: Record<string, unknown> | undefined) =>
    r.incremental
      ? new IncrementalCursor({ field: r.incremental.cursorField, initialValue: r.incremental.initialValue?.(ctx.config), primaryKey: r.primaryKey }, state, ctx.options)
      : null;

  /** every record of a resource, mapped, not flattened (parents of a child resource; recursive for grandchildren) */
  async function* allRecords(ctx: SourceContext<C>, client: RestClient, p: RestResource<C>): AsyncGenerator<Record<string, unknown>> {
    const emit = function* (page: Record<string, unknown>[], parent?: Record<string, unknown>) {
      for (const rec of page) {
        const mapped = p.map ? p.map(rec, ctx.config, parent) : rec;
        if (!mapped) continue;
        if (p.parent && parent) mapped[p.parent.as] = parent.__parentKey;
        yield mapped;
      }
    };
    if (!p.parent) {
      for await (const page of recordsOf(runFor(ctx, client, p, null))) yield* emit(page);
      return;
    }
    for await (const parent of parentKeys(ctx, client, p)) {
      for await (const page of recordsOf(runFor(ctx, client, p, null, parent))) yield* emit(page, parent);
    }
  }

  async function* parentKeys(ctx: SourceContext<C>, client: RestClient, r: RestResource<C>): AsyncGenerator<Record<string, unknown>> {
    const p = byName.get(r.parent!.resource);
    if (!p) throw new Error(`${decl.type}: resource ${r.name} names an unknown parent ${r.parent!.resource}`);
    for await (const rec of allRecords(ctx, client, p)) {
      if (!r.parent!.filter || r.parent!.filter(rec, ctx.config)) yield { ...rec, __parentKey: rec[r.parent!.field] };
    }
  }

  async function* readResource(ctx: SourceContext<C>, client: RestClient, r: RestResource<C>, state: Record<string, unknown> | undefined): AsyncGenerator<ReadItem> {
    const batchSize = (typeof decl.batchSize === 'function' ? decl.batchSize(ctx.config) : decl.batchSize) ?? 5000;
    if (!r.parent) {
      const cursor = cursorOf(ctx, r, state);
      for await (const batch of batchRecords(shaped(runFor(ctx, client, r, cursor)), batchSize)) yield { kind: 'records', resource: r.name, records: batch };
      const next = cursor?.state();
      if (next) yield { kind: 'state', resource: r.name, state: { ...next } };
      return;
    }
    // one cursor per parent: a new channel's history is read whole, the others from their own cursor
    const prev = (state?.parents ?? {}) as Record<string, CursorState>;
    const parents: Record<string, CursorState> = { ...prev };
    for await (const parent of parentKeys(ctx, client, r)) {
      const key = String(parent.__parentKey);
      const cursor = cursorOf(ctx, r, prev[key] as unknown as Record<string, unknown> | undefined);
      for await (const batch of batchRecords(shaped(runFor(ctx, client, r, cursor, parent)), batchSize)) yield { kind: 'records', resource: r.name, records: batch };
      const next = cursor?.state();
      if (next) parents[key] = next;
    }
    if (r.incremental && Object.keys(parents).length) yield { kind: 'state', resource: r.name, state: { parents } };
  }

  return defineSource({
    ...decl,
    resources: decl.resources ?? decl.endpoints.filter((e) => !e.hidden).map(specOf),
    // discover applies the config's own choice of resources (and finds dynamic ones)
    discoverSelects: true,
    async check(ctx) {
      try {
        const client = clientFor(ctx, Math.min(CHECK_RETRIES, decl.retries?.(ctx.config) ?? CHECK_RETRIES));
        if (decl.check) return { ok: true, message: await decl.check(ctx, client) };
        const r = selectedNames(ctx.config)
          .map((n) => byName.get(n))
          .find((e): e is RestResource<C> => !!e && !e.parent && !e.read);
        if (!r) return { ok: true, message: 'configuration is valid' };
        const path = typeof r.path === 'function' ? r.path(ctx.config) : (r.path ?? r.name);
        const params = typeof r.params === 'function' ? r.params(ctx.config) : r.params;
        const first = runFor(ctx, client, r, cursorOf(ctx, r, undefined)).cursorParams();
        const res = await client.request(path, { params: { ...params, ...first }, headers: r.headers });
        failOnResponseError(res.body, client);
        return { ok: true, message: `${new URL(client.baseUrl).host} answered ${res.status} for ${r.name}.` };
      } catch (err) {
        return { ok: false, message: (err as Error).message };
      }
    },
    async discover(ctx) {
      const all = await endpointsOf(ctx, clientFor(ctx));
      return selectedNames(ctx.config, [...all.values()])
        .map((n) => all.get(n))
        .filter((e): e is RestResource<C> => !!e && !e.hidden)
        .map(specOf);
    },
    async *read(ctx, resources, state) {
      const client = clientFor(ctx);
      const all = await endpointsOf(ctx, client);
      const names = resources.length ? resources.map((r) => r.name) : selectedNames(ctx.config, [...all.values()]);
      for (const n of names) {
        const r = all.get(n);
        if (!r) continue;
        yield* readResource(ctx, client, r, state[n]);
      }
    },
  });
}

