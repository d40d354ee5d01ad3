import { SourceError, type SourceLogger } from '../types.js';
import type { QueryValue, RestClient, RestResponse } from './client.js';
import { getPath, selectRecords } from './select.js';

export type PaginatorSpec =
  | { type: 'none' }
  | { type: 'auto' }
  | { type: 'page_number'; page_param?: string; start_page?: number; page_size_param?: string; page_size?: number; total_pages_path?: string }
  | { type: 'offset'; offset_param?: string; limit_param?: string; limit?: number; total_path?: string }
  | { type: 'cursor'; cursor_path?: string; cursor_param?: string }
  | { type: 'link_header' }
  | { type: 'next_url'; next_url_path?: string };

export interface PageRequest {
  /** path or absolute URL */
  url: string;
  params: Record<string, QueryValue>;
}

/** Decides the request after each page; null ends the pagination. */
export interface Paginator {
  first(req: PageRequest): PageRequest;
  next(res: RestResponse, records: unknown[], req: PageRequest): PageRequest | null;
}

/** The URL of rel="next" in an RFC 8288 Link header. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /<([^>]*)>(.*)/.exec(part.trim());
    if (m && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(m[2]!)) return m[1]!;
  }
  return null;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== false;

function pageNumber(spec: Extract<PaginatorSpec, { type: 'page_number' }>): Paginator {
  const param = spec.page_param ?? 'page';
  const start = spec.start_page ?? 1;
  return {
    first: (req) => ({ url: req.url, params: { ...req.params, [param]: start, ...(spec.page_size_param && spec.page_size ? { [spec.page_size_param]: spec.page_size } : {}) } }),
    next(res, records, req) {
      if (records.length === 0) return null;
      const page = Number(req.params[param] ?? start);
      const total = spec.total_pages_path ? Number(getPath(res.body, spec.total_pages_path)) : NaN;
      if (Number.isFinite(total) && page >= total + (start === 0 ? -1 : 0)) return null;
      if (spec.page_size && records.length < spec.page_size) return null;
      return { url: req.url, params: { ...req.params, [param]: page + 1 } };
    },
  };
}

function offset(spec: Extract<PaginatorSpec, { type: 'offset' }>): Paginator {
  const offsetParam = spec.offset_param ?? 'offset';
  const limitParam = spec.limit_param ?? 'limit';
  const limit = spec.limit ?? 100;
  return {
    first: (req) => ({ url: req.url, params: { ...req.params, [offsetParam]: Number(req.params[offsetParam] ?? 0), [limitParam]: limit } }),
    next(res, records, req) {
      if (records.length === 0 || records.length < limit) return null;
      const next = Number(req.params[offsetParam] ?? 0) + records.length;
      const total = spec.total_path ? Number(getPath(res.body, spec.total_path)) : NaN;
      if (Number.isFinite(total) && next >= total) return null;
      return { url: req.url, params: { ...req.params, [offsetParam]: next } };
    },
  };
}

function cursor(spec: Extract<PaginatorSpec, { type: 'cursor' }>): Paginator {
  const path = spec.cursor_path ?? 'next_cursor';
  const param = spec.cursor_param ?? 'cursor';
  return {
    first: (req) => req,
    next(res, _records, req) {
      const c = getPath(res.body, path);
      if (!present(c)) return null;
      if (String(c) === String(req.params[param] ?? '')) return null; // same cursor twice: stop rather than loop
      return { url: req.url, params: { ...req.params, [param]: String(c) } };
    },
  };
}

function linkHeader(): Paginator {
  return {
    first: (req) => req,
    next(res) {
      const link = nextLink(res.headers.get('link'));
      // the next URL carries every parameter itself
      return link ? { url: new URL(link, res.url).href, params: {} } : null;
    },
  };
}

function nextUrl(spec: Extract<PaginatorSpec, { type: 'next_url' }>): Paginator {
  const path = spec.next_url_path ?? 'next';
  return {
    first: (req) => req,
    next(res) {
      const link = getPath(res.body, path);
      return typeof link === 'string' && link ? { url: new URL(link, res.url).href, params: {} } : null;
    },
  };
}

const NEXT_URL_PATHS = ['next', 'next_url', 'nextUrl', 'links.next', 'paging.next', '_links.next.href', 'next_page_url', 'pagination.next_url'];
const CURSOR_PATHS: Array<[string, string]> = [
  ['next_cursor', 'cursor'],
  ['meta.next_cursor', 'cursor'],
  ['response_metadata.next_cursor', 'cursor'],
  ['pagination.next_cursor', 'cursor'],
  ['cursor.next', 'cursor'],
  ['next_page_token', 'page_token'],
  ['nextPageToken', 'pageToken'],
];
const TOTAL_PAGES_PATHS = ['total_pages', 'totalPages', 'meta.total_pages', 'pagination.total_pages', 'page_count', 'pages'];

/** Picks a paginator from the first response: Link header, a next URL, a cursor, page counts, else a single page. */
export function detectPaginator(res: RestResponse): PaginatorSpec {
  if (nextLink(res.headers.get('link'))) return { type: 'link_header' };
  const body = res.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const p of NEXT_URL_PATHS) {
      const v = getPath(body, p);
      if (typeof v === 'string' && /^(https?:\/\/|\/|\?)/.test(v)) return { type: 'next_url', next_url_path: p };
    }
    for (const [p, param] of CURSOR_PATHS) if (typeof getPath(body, p) === 'string' && getPath(body, p)) return { type: 'cursor', cursor_path: p, cursor_param: param };
    for (const p of TOTAL_PAGES_PATHS) if (typeof getPath(body, p) === 'number') return { type: 'page_number', total_pages_path: p };
  }
  return { type: 'none' };
}

export function createPaginator(spec: PaginatorSpec): Paginator {
  switch (spec.type) {
    case 'none':
      return { first: (r) => r, next: () => null };
    case 'page_number':
      return pageNumber(spec);
    case 'offset':
      return offset(spec);
    case 'cursor':
      return cursor(spec);
    case 'link_header':
      return linkHeader();
    case 'next_url':
      return nextUrl(spec);
    case 'auto': {
      let chosen: Paginator | null = null;
      return {
        first: (r) => r,
        next(res, records, req) {
          if (!chosen) {
            const detected = detectPaginator(res);
            chosen = createPaginator(detected);
            if (detected.type === 'page_number') {
              // the first request had no page param: it was page 1
              const p = (detected.page_param ?? 'page') as string;
              req = { url: req.url, params: { ...req.params, [p]: req.params[p] ?? 1 } };
            }
          }
          return chosen.next(res, records, req);
        },
      };
    }
  }
}

export interface PaginateOptions {
  params?: Record<string, QueryValue>;
  paginator?: PaginatorSpec | Paginator;
  /** dotted path of the records in each response (auto-detected when absent) */
  dataSelector?: string;
  /** headers of every page request (e.g. a media type) */
  headers?: Record<string, string>;
  /** stops with an error after this many pages (default 1,000,000: a guard against loops) */
  maxPages?: number;
  /** request the next page while the caller handles the current one (default true) */
  prefetch?: boolean;
  /** warned when auto-detection found no pagination but the only page looks cut at a page size */
  log?: SourceLogger;
}

export interface Page {
  records: Record<string, unknown>[];
  response: RestResponse;
  index: number;
}

const SIZE_PARAMS = ['limit', 'per_page', 'perPage', 'page_size', 'pageSize', 'size', 'count', 'max_results', 'maxResults'];

/** One page, no pagination detected, and exactly "page size" rows: probably more pages we cannot find. */
function warnIfTruncated(path: string, n: number, opts: PaginateOptions): void {
  const sizeParam = SIZE_PARAMS.find((p) => Number(opts.params?.[p]) === n);
  if (n > 0 && (sizeParam || n === 100 || n === 1000)) {
    opts.log?.warn(`${path}: one page of ${n} rows and no pagination found in the response; if there are more, set "paginator" (page_number, offset, cursor, link_header, next_url).`, { path, rows: n });
  }
}

/**
 * Requests page after page of an endpoint and yields each page's records. The next page is
 * requested before the current one is handed over (unless `prefetch: false`), so the network
 * and the API work while the caller loads the rows.
 */
export async function* paginate(client: RestClient, path: string, opts: PaginateOptions = {}): AsyncGenerator<Page> {
  const spec = opts.paginator ?? { type: 'auto' };
  const paginator = 'first' in spec ? spec : createPaginator(spec);
  const maxPages = opts.maxPages ?? 1_000_000;
  const prefetch = opts.prefetch ?? true;
  const seen = new Set<string>();
  const origin = new URL(client.baseUrl).origin;
  const send = (r: PageRequest): Promise<RestResponse> | null => {
    const target = client.url(r.url, r.params);
    if (target.origin !== origin) {
      // credentials go with every request: never follow a next link to another host
      throw new SourceError('pagination_off_origin', `${path}: the API's next page is on ${target.origin}, not ${origin}; Basin does not send credentials there.`, { origin: target.origin });
    }
    const key = target.href;
    if (seen.has(key)) return null; // the API sent us back to a page we read: stop instead of looping
    seen.add(key);
    const p = client.request(r.url, { params: r.params, headers: opts.headers });
    p.catch(() => {}); // observed when awaited; avoids an unhandled rejection if the caller stops early
    return p;
  };
  let req: PageRequest | null = paginator.first({ url: path, params: { ...opts.params } });
  let pending = send(req);
  for (let index = 0; pending && req; index++) {
    if (index >= maxPages) throw new SourceError('too_many_pages', `${path}: more than ${maxPages} pages; is the paginator configured right?`);
    const response = await pending;
    const records = selectRecords(response.body, opts.dataSelector);
    req = paginator.next(response, records, req);
    if (!req && index === 0 && !('first' in spec) && spec.type === 'auto') warnIfTruncated(path, records.length, opts);
    pending = null;
    if (req && prefetch) pending = send(req);
    yield { records, response, index };
    if (req && !prefetch) pending = send(req);
  }
}
