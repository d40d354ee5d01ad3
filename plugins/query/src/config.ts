import { Type, type Static } from '@sinclair/typebox';

/** Default cap on a query response: 32 MiB of JSON. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** `api` section of project.yml (SPEC "api section"; the query_* limits beyond rows and time are Basin's, docs/query.md). */
export const ApiSection = Type.Object(
  {
    query_max_rows: Type.Integer({ minimum: 1, default: 10000 }),
    query_timeout_seconds: Type.Integer({ minimum: 1, default: 30 }),
    query_max_response_bytes: Type.Integer({ minimum: 1024, default: DEFAULT_MAX_RESPONSE_BYTES, description: 'cap on the JSON of one query response; beyond it the rows are cut and truncated is true' }),
    query_concurrency: Type.Integer({ minimum: 1, maximum: 64, default: 2, description: 'queries running at once, each in its own process' }),
    query_queue_size: Type.Integer({ minimum: 0, default: 16, description: 'queries waiting for a free slot; beyond it 503 query_busy' }),
    query_memory_mb: Type.Integer({ minimum: 128, default: 1024, description: 'memory of one query process; over it the query is stopped (400 query_resource_limit)' }),
  },
  { additionalProperties: false, default: {} },
);
export type ApiSection = Static<typeof ApiSection>;
