import { Type, type Static } from '@sinclair/typebox';

/** `tx` section of .basin/project.yml: how Basin drives dbt (SPEC leaves these open; docs/decisions.md). */
export const TxSection = Type.Object(
  {
    /** a dbt invocation running longer is stopped (SIGTERM, then SIGKILL) and the run fails */
    timeout_seconds: Type.Integer({ minimum: 1, default: 3600 }),
    /** run `dbt docs generate` after each successful run so /tx-docs/ stays current */
    docs_after_run: Type.Boolean({ default: true }),
  },
  { additionalProperties: false, default: {} },
);
export type TxSection = Static<typeof TxSection>;
