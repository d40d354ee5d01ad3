import { Type, type Static } from '@sinclair/typebox';

/** project.yml `bi:` (the port is SPEC's `platform.bi_port`) */
export const BiSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'false: no /bi proxy and no Superset process' }),
    start_timeout_seconds: Type.Integer({ minimum: 10, maximum: 1800, default: 300 }),
  },
  { additionalProperties: false, default: {} },
);
export type BiSection = Static<typeof BiSection>;
