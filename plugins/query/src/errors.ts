import { defineErrors } from '@basin/core';

/** The query plugin's error codes (POST /api/query). */
export const queryErrors = defineErrors('query', {
  query_timeout: { status: 400, message: (a: { seconds?: number }) => (a.seconds === undefined ? 'The query was interrupted.' : `The query ran longer than ${a.seconds} seconds and was stopped (api.query_timeout_seconds).`) },
  query_not_allowed: { status: 400, message: (a: { reason: string }) => a.reason },
  query_failed: { status: 400, message: (a: { reason: string }) => a.reason },
  invalid_sql: { status: 400, message: (a: { reason: string }) => `The SQL does not parse: ${a.reason}` },
  query_resource_limit: { status: 400, message: 'The query needs more memory than a query may use (api.query_memory_mb); narrow it (filter, aggregate, LIMIT).' },
  query_busy: { status: 503, message: 'Every query slot is busy and the queue is full; retry shortly.' },
  serving_copy_unavailable: { status: 503, message: 'The read-only copy of the warehouse is not available yet; retry shortly.' },
  shutting_down: { status: 503, message: 'The server is shutting down.' },
});
