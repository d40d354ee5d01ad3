import { Type } from '@sinclair/typebox';

/** Response bodies of the platform routes, for the OpenAPI document (SPEC "Platform"). */
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const StatusBody = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  warehouse: Type.Object({
    status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
    error: Type.Optional(Type.String()),
    /** false while the embedded warehouse has not been opened yet (it opens on first use) */
    opened: Type.Optional(Type.Boolean()),
    /** the closed warehouse file's size (with its WAL) */
    size_bytes: Type.Optional(Type.Integer()),
    serving_copy: Type.Optional(Type.Union([Type.Object({ published_at: Type.String({ format: 'date-time' }), age_seconds: Type.Integer() }), Type.Null()])),
  }),
  companions: Type.Array(Type.Object({ name: Type.String(), state: Type.String(), url: Type.Optional(Type.String()), detail: Type.Optional(Type.String()) })),
});

export const ConfigBody = Type.Object({
  project: Type.Object({
    name: Type.String(),
    organization: Nullable(Type.String()),
    purpose: Type.String(),
    basin_version: Nullable(Type.String()),
    created: Type.Unknown(),
    sla: Nullable(Type.String()),
    limitations: Nullable(Type.String()),
    getting_started: Nullable(Type.String()),
    stakeholders: Type.Array(Type.Object({ name: Type.String() })),
  }),
  deployment: Type.Union([Type.Literal('local'), Type.Literal('cloud')]),
  auth_enabled: Type.Boolean(),
  services: Type.Object({ api: Type.String(), docs: Type.String(), redoc: Type.String(), bi: Type.String(), tx_docs: Type.String(), websocket: Type.String() }),
  ports: Type.Object({ port: Type.Integer(), bi_port: Type.Integer(), tx_docs_port: Type.Integer(), notebook_port: Type.Integer() }),
  features: Type.Object({ auto_sync: Type.Boolean(), auto_tx: Type.Boolean() }),
  plugins: Type.Array(Type.String()),
});
