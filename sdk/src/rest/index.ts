export { createAuthenticator, type Authenticator, type AuthDeps, type AuthSpec } from './auth.js';
export { RestClient, displayUrl, type QueryValue, type RestClientOptions, type RestRequest, type RestResponse } from './client.js';
export { backoffDelay, DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, sleep, type RetryPolicy } from './retry.js';
export { createPaginator, detectPaginator, nextLink, paginate, type Page, type PageRequest, type PaginateOptions, type Paginator, type PaginatorSpec } from './paginators.js';
export { getPath, selectRecords } from './select.js';
export { compareCursor, IncrementalCursor, type CursorOptions, type CursorState, type RunOptions } from './incremental.js';
export { batchRecords } from './batch.js';
