import { Type, type Static } from '@sinclair/typebox';

/** project.yml `workers:` (issue 22 item 5; beyond SPEC): syncs run on `basin worker` processes */
export const WorkersSectionSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: false, description: 'true: the server queues every sync for `basin worker` processes instead of running it itself' }),
    queue_url_env: Type.String({
      default: 'BASIN_QUEUE_URL',
      description: 'environment variable holding the queue database URL (postgres://...); unset: the PostgreSQL warehouse connection',
    }),
    queue_schema: Type.String({ default: 'basin_queue', pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'PostgreSQL schema of the job queue (pg-boss tables)' }),
    job_timeout_seconds: Type.Integer({ minimum: 5, maximum: 82800, default: 3600, description: 'a sync still active after this long is failed (its worker died); longer than the longest sync' }),
    retry_limit: Type.Integer({ minimum: 0, maximum: 10, default: 0, description: 'times a failed or timed-out job is sent again' }),
    concurrency: Type.Integer({ minimum: 1, maximum: 64, default: 1, description: 'syncs one worker runs at once' }),
    supervise_interval_seconds: Type.Integer({ minimum: 1, maximum: 3600, default: 30, description: 'how often the queue looks for jobs whose worker died' }),
  },
  { additionalProperties: false, default: {} },
);

export type WorkersSection = Static<typeof WorkersSectionSchema>;
