import { coreServices, definePlugin } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { ApiSection } from './config.js';
import { executeQuery, MAX_SQL_BYTES } from './executor.js';
import { ServingReader } from './serving-reader.js';
import { queryPermissions } from './permissions.js';
import { queryErrors } from './errors.js';

export { ApiSection } from './config.js';
export { guardSelect, ALLOWED_TABLE_FUNCTIONS } from './sql-guard.js';
export { statementKind } from './statement-kind.js';
export type { QueryResult } from './executor.js';

/** POST /api/query: one read-only SELECT on the serving copy (SPEC "Query"). */
export default definePlugin({
  name: 'query',
  permissions: Object.values(queryPermissions),
  configSections: [{ section: 'api', schema: ApiSection }],
  register(ctx) {
    const reader = new ServingReader(ctx.resolve(coreServices.warehouse), ctx.log);
    ctx.onStop(() => reader.close());
    const limits = () => {
      const api = ctx.config.section<ApiSection | undefined>('api');
      return { maxRows: api?.query_max_rows ?? 10000, timeoutSeconds: api?.query_timeout_seconds ?? 30 };
    };

    ctx.routes.post(
      '/api/query',
      { errors: [queryErrors.query_timeout, queryErrors.query_not_allowed, queryErrors.query_failed, queryErrors.invalid_sql, queryErrors.serving_copy_unavailable, queryErrors.shutting_down],
        permission: 'query.execute',
        response: {
          200: Type.Object({
            columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
            rows: Type.Array(Type.Array(Type.Unknown())),
            row_count: Type.Integer({ minimum: 0 }),
            truncated: Type.Boolean(),
            elapsed_ms: Type.Number(),
          }),
        },
        // larger than the SQL limit so an oversized SQL gets the explanatory 413 from the handler
        bodyLimit: 10 * MAX_SQL_BYTES,
        schema: {
          summary: 'Run one read-only SELECT against the serving copy of the warehouse',
          description:
            'Exactly one SELECT (CTEs, set operations, subqueries); writes, DDL, ATTACH, COPY, SET, PRAGMA, INSTALL/LOAD, EXPORT and file-reading functions are refused with 400 query_not_allowed. At most api.query_max_rows rows (truncated: true beyond), SQL at most 100 KB (413), stopped after api.query_timeout_seconds (400 query_timeout).',
          body: Type.Object({ sql: Type.String({ description: 'one SELECT statement' }) }),
        },
      },
      async (req) => executeQuery(reader, req.body.sql, limits()),
    );
  },
});
