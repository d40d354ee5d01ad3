import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { coreErrors, coreServices, definePlugin } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { ApiSection, DEFAULT_MAX_RESPONSE_BYTES } from './config.js';
import { QueryPool } from './query-pool.js';
import { runOnServerWarehouse } from './server-query.js';
import { registerQueryCommand } from './cli/query.js';

/** How long a query waits for the warehouse to publish a copy holding the latest writes before answering from the previous one. */
export const STALE_PUBLISH_WAIT_MS = 2000;

/** a page module of this plugin (served by the web plugin with its folder, ctx.page) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));
import { queryPermissions } from './permissions.js';
import { queryErrors } from './errors.js';

export { ApiSection } from './config.js';
export { guardSelect, ALLOWED_TABLE_FUNCTIONS } from './sql-guard.js';
export { statementKind } from './statement-kind.js';

export const MAX_SQL_BYTES = 100 * 1024;

/** POST /api/query: one read-only SELECT on the serving copy (SPEC "Query"), run in a query process. */
export default definePlugin({
  name: 'query',
  permissions: Object.values(queryPermissions),
  configSections: [{ section: 'api', schema: ApiSection }],
  commands: registerQueryCommand,
  register(ctx) {
    ctx.page({ path: '/query', title: 'SQL', permission: 'query.execute', section: 'Data', order: 50, file: uiFile('query.js') });
    const warehouse = ctx.resolve(coreServices.warehouse);
    const client = ctx.resolve(coreServices.warehouseClient);
    const api = () => ctx.config.section<Partial<ApiSection> | undefined>('api') ?? {};
    const pool = new QueryPool(() => {
      const a = api();
      return { size: a.query_concurrency ?? 2, queueSize: a.query_queue_size ?? 16, memoryMb: a.query_memory_mb ?? 1024 };
    }, ctx.log);
    ctx.onStop(() => pool.close());

    ctx.routes.post(
      '/api/query',
      { errors: [queryErrors.query_timeout, queryErrors.query_not_allowed, queryErrors.query_failed, queryErrors.invalid_sql, queryErrors.query_resource_limit, queryErrors.query_busy, queryErrors.serving_copy_unavailable, queryErrors.shutting_down],
        permission: 'query.execute',
        response: {
          200: Type.Object({
            columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
            rows: Type.Array(Type.Array(Type.Unknown())),
            row_count: Type.Integer({ minimum: 0 }),
            truncated: Type.Boolean(),
            truncated_reason: Type.Optional(Type.Union([Type.Literal('rows'), Type.Literal('bytes')])),
            elapsed_ms: Type.Number(),
          }),
        },
        // larger than the SQL limit so an oversized SQL gets the explanatory 413 from the handler
        bodyLimit: 10 * MAX_SQL_BYTES,
        schema: {
          summary: 'Run one read-only SELECT against the serving copy of the warehouse',
          description:
            'Exactly one SELECT (CTEs, set operations, subqueries); writes, DDL, ATTACH, COPY, SET, PRAGMA, INSTALL/LOAD, EXPORT, file-reading and sleeping functions are refused with 400 query_not_allowed. At most api.query_max_rows rows and api.query_max_response_bytes of JSON (truncated: true and truncated_reason beyond), SQL at most 100 KB (413), stopped after api.query_timeout_seconds (400 query_timeout) or over api.query_memory_mb (400 query_resource_limit); 503 query_busy when every query slot is taken and the queue is full.',
          body: Type.Object({ sql: Type.String({ description: 'one SELECT statement' }) }),
        },
      },
      async (req, reply) => {
        const sql = req.body.sql as string;
        const bytes = Buffer.byteLength(sql, 'utf8');
        if (bytes > MAX_SQL_BYTES) {
          throw coreErrors.payload_too_large({ reason: `The SQL is ${bytes} bytes; at most ${MAX_SQL_BYTES} bytes (100 KB) are accepted.` }, { details: { limit_bytes: MAX_SQL_BYTES, bytes } });
        }
        const a0 = api();
        if (!client.capabilities.servingCopy) {
          // a server warehouse: its read-only user, not the serving copy (issue 22)
          const limits = { maxRows: a0.query_max_rows ?? 10000, maxBytes: a0.query_max_response_bytes ?? DEFAULT_MAX_RESPONSE_BYTES, timeoutSeconds: a0.query_timeout_seconds ?? 30 };
          return reply.type('application/json; charset=utf-8').send(await runOnServerWarehouse(client, sql, limits));
        }
        // the warehouse alone publishes the copy; a query waits a little for a publish under way and never writes (issue 11)
        await warehouse.servingCopyReady(STALE_PUBLISH_WAIT_MS);
        if (!fs.existsSync(warehouse.servingPath)) {
          throw queryErrors.serving_copy_unavailable();
        }
        const a = api();
        const body = await pool.run(
          { sql, file: warehouse.servingPath, maxRows: a.query_max_rows ?? 10000, maxBytes: a.query_max_response_bytes ?? DEFAULT_MAX_RESPONSE_BYTES },
          a.query_timeout_seconds ?? 30,
        );
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  },
});
