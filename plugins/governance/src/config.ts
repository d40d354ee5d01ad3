import { Type, type Static } from '@sinclair/typebox';
import type { ConfigFileSpec } from '@basin/core';

export const PiiOverride = Type.Object(
  {
    source: Type.String(),
    table: Type.String(),
    column: Type.String(),
    status: Type.Union([Type.Literal('pii'), Type.Literal('not_pii')]),
    set_by: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.Union([Type.String(), Type.Date()])),
  },
  { additionalProperties: false },
);
export const PiiOverridesFile = Type.Object({ overrides: Type.Array(PiiOverride, { default: [] }) }, { additionalProperties: false, default: {} });
export type PiiOverridesFile = Static<typeof PiiOverridesFile>;

export const piiOverridesFileSpec: ConfigFileSpec = { id: 'pii-overrides', path: '.basin/pii-overrides.yml', format: 'yaml', schema: PiiOverridesFile };

/** optional `governance` section of project.yml (beyond SPEC: the spec fixes only the default sample size) */
export const GovernanceSection = Type.Object(
  {
    drift_enabled: Type.Boolean({ default: true }),
    pii_enabled: Type.Boolean({ default: true }),
    /** rows sampled from each new or changed table */
    pii_sample_rows: Type.Integer({ minimum: 1, maximum: 100000, default: 100 }),
    /** on a bigger table the sample is drawn from about this many rows spread over it, so the check after a load does not read the whole table */
    pii_sample_read_rows: Type.Integer({ minimum: 1000, maximum: 1_000_000_000, default: 100000 }),
    /** share of sampled non-null values a detector must match to call a column PII on values alone */
    pii_min_match_share: Type.Number({ minimum: 0.05, maximum: 1, default: 0.5 }),
    /** findings below this confidence are not reported */
    pii_min_confidence: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
  },
  { additionalProperties: false, default: {} },
);
export type GovernanceSettings = Static<typeof GovernanceSection>;
