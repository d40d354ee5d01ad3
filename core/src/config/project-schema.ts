import { Type, type Static } from '@sinclair/typebox';

/** `project` section of `.basin/project.yml` (SPEC "project section"). */
export const ProjectSection = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    organization: Type.Optional(Type.String()),
    basin_version: Type.Optional(Type.String()),
    created: Type.Union([Type.String({ format: 'date-time' }), Type.Date()]),
    created_by: Type.String({ minLength: 1 }),
    purpose: Type.String(),
    stakeholders: Type.Optional(
      Type.Array(Type.Object({ name: Type.String(), role: Type.Optional(Type.String()), contact: Type.Optional(Type.String()) }, { additionalProperties: false })),
    ),
    sla: Type.Optional(Type.String()),
    limitations: Type.Optional(Type.String()),
    getting_started: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ProjectSection = Static<typeof ProjectSection>;

/** `platform` section (SPEC "platform section"), every default from the table. */
export const PlatformSection = Type.Object(
  {
    db_path: Type.String({ default: './data/warehouse.db' }),
    tx_project_dir: Type.String({ default: './tx' }),
    data_dir: Type.String({ default: './data' }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 8800 }),
    bi_port: Type.Integer({ minimum: 1, maximum: 65535, default: 3000 }),
    tx_docs_port: Type.Integer({ minimum: 1, maximum: 65535, default: 8081 }),
    notebook_port: Type.Integer({ minimum: 1, maximum: 65535, default: 7805 }),
    auto_sync: Type.Boolean({ default: true }),
    auto_tx: Type.Boolean({ default: true }),
    debounce_seconds: Type.Integer({ minimum: 0, default: 600 }),
    tx_coalesce_seconds: Type.Integer({ minimum: 0, default: 10 }),
    workers: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: null }),
    watch_patterns: Type.Array(Type.String(), { default: ['*.csv', '*.json', '*.jsonl', '*.ndjson', '*.parquet'] }),
    watch_directories: Type.Array(Type.String(), { default: ['data/uploads'] }),
    deployment: Type.Union([Type.Literal('local'), Type.Literal('cloud')], { default: 'local' }),
  },
  { additionalProperties: false, default: {} },
);
export type PlatformSection = Static<typeof PlatformSection>;
