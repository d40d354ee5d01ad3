import { Type, type Static } from '@sinclair/typebox';

/** `api` section of project.yml (SPEC "api section"). */
export const ApiSection = Type.Object(
  {
    query_max_rows: Type.Integer({ minimum: 1, default: 10000 }),
    query_timeout_seconds: Type.Integer({ minimum: 1, default: 30 }),
  },
  { additionalProperties: false, default: {} },
);
export type ApiSection = Static<typeof ApiSection>;
