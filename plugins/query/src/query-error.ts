/**
 * A refusal or failure of one query, as plain data: the query process (query-child.ts) cannot
 * throw the server's BasinError across the process boundary, so it sends this shape and the
 * server turns it into a BasinError with the same status, code and details.
 */
export class QueryError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

export interface QueryErrorData {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export const toErrorData = (e: QueryError): QueryErrorData => ({ status: e.status, code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) });
